// Linux /proc readings shared by the probes (bench/*-threads.mjs, idle-trace.mjs, idle-ab.mjs): per-thread
// CPU, the reaped children's CPU, a process's age, and its resident memory by kind of mapping.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticks = null;
/** Clock ticks per second (getconf CLK_TCK, 100 when unknown). */
export function clockTicks() {
  if (ticks === null) {
    try { ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100; }
    catch { ticks = 100; }
  }
  return ticks;
}

/** The fields of a /proc stat line after the command name (index 0 is the state). */
export const statFields = (text) => text.slice(text.lastIndexOf(')') + 2).split(' ');

/** 'C1' or 'C2' for a HotSpot compiler thread's name ("C2 CompilerThread0"), else null. */
export const compilerOf = (name) => (/^C1 Compiler/.test(name) ? 'C1' : /^C2 Compiler/.test(name) ? 'C2' : null);

/** tid -> {name, ms}: the CPU (user + system) of every live thread of pid. */
export function threadCpu(pid) {
  const threads = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const st = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = statFields(st);
      threads.set(tid, { name: st.slice(st.indexOf('(') + 1, st.lastIndexOf(')')),
        ms: ((Number(f[11]) + Number(f[12])) * 1000) / clockTicks() });
    } catch { /* exited meanwhile */ }
  }
  return threads;
}

/** The CPU (ms, user + system) pid has spent so far, all its threads (the JIT's and the GC's included). */
export function processCpuMs(pid) {
  const f = statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  return ((Number(f[11]) + Number(f[12])) * 1000) / clockTicks();
}

/** The CPU (ms) of pid's children it has reaped (rg, the login shell, ...). */
export function reapedChildrenMs(pid) {
  const f = statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  return ((Number(f[13]) + Number(f[14])) * 1000) / clockTicks();
}

/** Seconds since pid started (/proc/uptime against its start time), as the JVM's log stamps count. */
export function uptimeOf(pid) {
  const up = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
  return up - Number(statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'))[19]) / clockTicks();
}

export const KINDS = ['archive', 'libs', 'other files', 'code', 'malloc', 'other anon'];

/**
 * Resident MiB of pid by kind of mapping (smaps): the JVM's start-up archive, shared libraries, other
 * files, executable anonymous memory (the code cache), malloc (the [heap] and glibc's 64 MiB-aligned
 * arenas) and the rest of the anonymous memory (the Java heap, metaspace, stacks).
 */
export function residentByKind(pid) {
  const sum = Object.fromEntries(KINDS.map((k) => [k, 0]));
  let kind = null;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+)-[0-9a-f]+ (\S+) \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (m) {
      const [, start, perms, path] = m;
      if (/\.(aot|cds|jsa)$/.test(path)) kind = 'archive';
      else if (/\.so(\.|$)/.test(path)) kind = 'libs';
      else if (path === '[heap]') kind = 'malloc';
      else if (path !== '') kind = 'other files';
      else if (perms.includes('x')) kind = 'code';
      else if (BigInt(`0x${start}`) % 0x4000000n === 0n) kind = 'malloc';
      else kind = 'other anon';
      continue;
    }
    const r = /^Rss:\s+(\d+)/.exec(line);
    if (r && kind) sum[kind] += Number(r[1]) / 1024;
  }
  return sum;
}

/**
 * tid -> {name, voluntary, involuntary, runNs, waitNs} of every live thread of pid: its context switches
 * (a voluntary one is a sleep: a read, a park, a wait, each ended by a wake-up) from status, and from
 * schedstat its time on a CPU and its time runnable but waiting for one (the scheduler's delay).
 */
export function threadSwitches(pid) {
  const threads = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
      const field = (k) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
      const [runNs, waitNs] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      threads.set(tid, { name: /^Name:\s+(.*)$/m.exec(status)?.[1] ?? '?', voluntary: field('voluntary_ctxt_switches'),
        involuntary: field('nonvoluntary_ctxt_switches'), runNs, waitNs });
    } catch { /* exited meanwhile */ }
  }
  return threads;
}

/** The machine's CPU time so far, in clock ticks over all CPUs: {idle (idle + iowait), total} (/proc/stat). */
export function machineCpu() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { idle: f[3] + (f[4] ?? 0), total: f.slice(0, 8).reduce((a, b) => a + b, 0) };
}
