#!/usr/bin/env node
// The idle host's thread census (issue 19; an investigation aid beside bench/memory.sh, no goal of its own):
// a fresh `pi-host serve --stdio` as bin/pi-host starts it, host.info and one session.create, then at
// memory.sh's moment (3 s after the answer) every thread: its name (the kernel's 15 characters and the
// JVM's full name from a thread dump), its CPU so far, the resident KiB of its stack (the mapping that holds
// its stack pointer, from /proc/PID/task/TID/syscall and /proc/PID/smaps), and the frame it waits in and the
// frame that started it (the dump's top and bottom frames: who made it). Then the glibc malloc arenas
// (64 MiB-aligned anonymous mappings and [heap]) with their resident KiB: an arena is not tied to a thread in
// anything the kernel shows, but there are at most 8 per CPU, so their count says whether the threads that
// ever allocated exceeded the cap. The thread dump is asked for by SIGQUIT after the reading
// (jvm.options sends it to stderr; it changes nothing that was read).
// usage: node bench/idle-threads.mjs [--java JAVA] [--settle MS] [--wakes MS] [--all]
//   --wakes: also each thread's wake-ups (voluntary context switches) over MS of idle after the reading
//   --all: every thread's row (else the JVM's own threads are summed by kind and the host's listed)
// (PI_HOST_JAVA_OPTS is passed through.)
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { killAll, startServer } from './jsonrpc.mjs';
import { javaFeature, piHostCommand } from './pi-host-command.mjs';

const o = { java: null, settleMs: 3000, wakesMs: 0, all: false };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--java') o.java = process.argv[++i];
  else if (a === '--settle') o.settleMs = Number(process.argv[++i]);
  else if (a === '--all') o.all = true;
  else if (a === '--wakes') o.wakesMs = Number(process.argv[++i]);
  else { console.error(`unknown option ${a}`); process.exit(2); }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const scratch = mkdtempSync(join(tmpdir(), 'pi-host-threads-'));
const root = join(scratch, 'project');
mkdirSync(root, { recursive: true });
writeFileSync(join(root, 'a.txt'), 'x\n');
const env = o.java ? { PI_HOST_JAVA: o.java } : {};
const command = piHostCommand(['serve', '--stdio', '--data-dir', join(scratch, 'data')], env);
const tck = 100;

/** Mappings of pid: [{start, end, perms, path, rssKb}]. */
function mappings(pid) {
  const out = [];
  let cur = null;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (m) { cur = { start: BigInt(`0x${m[1]}`), end: BigInt(`0x${m[2]}`), perms: m[3], path: m[4], rssKb: 0 }; out.push(cur); continue; }
    const r = /^Rss:\s+(\d+)/.exec(line);
    if (r && cur) cur.rssKb = Number(r[1]);
  }
  return out;
}

/** tid -> {comm, state, cpuMs, sp} for every live thread. */
function tasks(pid) {
  const out = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const st = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const comm = st.slice(st.indexOf('(') + 1, st.lastIndexOf(')'));
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      let sp = null;
      try {
        const sc = readFileSync(`/proc/${pid}/task/${tid}/syscall`, 'utf8').trim().split(' ');
        if (sc.length >= 3) sp = BigInt(sc[sc.length - 2]);
      } catch { /* not readable: no stack figure */ }
      out.set(Number(tid), { comm, state: f[0], cpuMs: ((Number(f[11]) + Number(f[12])) * 1000) / tck, sp });
    } catch { /* exited meanwhile */ }
  }
  return out;
}

/** nid -> {name, top, bottom} from a HotSpot thread dump. */
function parseDump(text) {
  const out = new Map();
  let cur = null;
  for (const line of text.split('\n')) {
    const h = /^"(.*)"(?: #\d+)?.* nid=(0x[0-9a-f]+|\d+)/.exec(line);
    if (h) {
      cur = { name: h[1], frames: [] };
      out.set(Number(h[2]), cur);
      continue;
    }
    const f = /^\s+at (\S+)/.exec(line);
    if (f && cur) cur.frames.push(f[1]);
    if (line.trim() === '') cur = null;
  }
  return out;
}

const s = startServer('pi-host', command.cmd, command.args, 120000);
let stderr = '';
s.child.stderr.on('data', (c) => { stderr += c; });
await s.call('host.info');
await s.call('session.create', { projectRoot: root, permissionMode: 'auto' });
await sleep(o.settleMs);
const pid = s.child.pid;
const status = readFileSync(`/proc/${pid}/status`, 'utf8');
const maps = mappings(pid);
const ts = tasks(pid);
const switches = (tid) => {
  try {
    return Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'))[1]);
  } catch { return null; }
};
const wakes = new Map();
if (o.wakesMs > 0) {
  const before = new Map([...ts.keys()].map((tid) => [tid, switches(tid)]));
  await sleep(o.wakesMs);
  for (const [tid, b] of before) { const a = switches(tid); if (a !== null && b !== null) wakes.set(tid, a - b); }
}
s.child.kill('SIGQUIT');
await sleep(1500);
const dump = parseDump(stderr);
await s.stop();

const kb = (k) => Number((new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status) || [0, 0])[1]);
console.log(`java ${javaFeature(command.cmd)}; load ${loadavg().map((x) => x.toFixed(2)).join(' ')}; `
  + `${o.settleMs} ms after session.create: VmRSS ${(kb('VmRSS') / 1024).toFixed(1)} MiB, `
  + `RssAnon ${(kb('RssAnon') / 1024).toFixed(1)}, threads ${ts.size}`);
const stackOf = (sp) => (sp === null ? null : maps.find((m) => m.start <= sp && sp < m.end));
const jvmKind = (name) => {
  if (/^C[12] CompilerThread/.test(name)) return 'JIT compiler';
  if (/^GC |^VM Thread$|^VM Periodic Task|^Service Thread$|^Monitor Deflation|^Signal Dispatcher$|^Finalizer$|^Reference Handler$|^Notification Thread$|^Common-Cleaner$|^Sweeper|^Attach|^G1|^Serial/.test(name)) return 'JVM';
  return null;
};
// who made it: the deepest frame outside the JDK (the Runnable of our or a library's thread), else the frame
// above Thread.run (a JDK pool's worker or the JDK's own thread)
const jdk = /^(java|javax|jdk|sun)\./;
const maker = (frames) => {
  const own = [...frames].reverse().find((f) => !jdk.test(f));
  if (own) return own;
  const run = frames.findIndex((f) => /\.run\(/.test(f) && /Thread\.run|InnocuousThread\.run/.test(f));
  return run > 0 ? frames[run - 1] : (frames[frames.length - 1] || '');
};
const rows = [];
for (const [tid, t] of [...ts].sort((a, b) => a[0] - b[0])) {
  const d = dump.get(tid);
  const name = d ? d.name : `(${t.comm})`;
  const stack = stackOf(t.sp);
  rows.push({
    tid, name, state: t.state, wakes: wakes.get(tid), cpuMs: t.cpuMs, stackKb: stack ? stack.rssKb : null,
    top: d && d.frames.length ? d.frames[0] : '', bottom: d ? maker(d.frames) : '',
    kind: jvmKind(name) || (d && d.frames.length === 0 ? 'JVM' : 'java'),
  });
}
let stackSum = 0;
for (const r of rows) stackSum += r.stackKb || 0;
console.log(`thread stacks resident: ${(stackSum / 1024).toFixed(1)} MiB over ${rows.filter((r) => r.stackKb !== null).length} readable stacks`);
for (const kind of ['JVM', 'JIT compiler']) {
  const k = rows.filter((r) => r.kind === kind);
  console.log(`${kind}: ${k.length} threads, stacks ${k.reduce((a, r) => a + (r.stackKb || 0), 0)} KiB: ${k.map((r) => r.name).join(', ')}`);
}
if (o.wakesMs > 0) {
  const total = [...wakes.values()].reduce((a, x) => a + x, 0);
  console.log(`wake-ups over ${o.wakesMs} ms of idle: ${total}; by thread: ${rows.filter((r) => r.wakes > 0)
    .sort((a, b) => b.wakes - a.wakes).map((r) => `${r.name} ${r.wakes}`).join(', ')}`);
}
console.log('tid     state cpu-ms stack-KiB name | waits in | started by');
for (const r of rows) {
  if (!o.all && r.kind !== 'java') continue;
  console.log(`${String(r.tid).padEnd(7)} ${r.state}  ${r.cpuMs.toFixed(0).padStart(6)} ${String(r.stackKb ?? '?').padStart(9)} ${r.name} | ${r.top} | ${r.bottom}`);
}
const arenas = maps.filter((m) => m.path === '[heap]' || (m.path === '' && !m.perms.includes('x') && m.start % 0x4000000n === 0n && m.perms.startsWith('rw')));
console.log(`malloc arenas: ${arenas.length} (cap 8 per CPU + main), resident KiB: ${arenas.map((m) => m.rssKb).join(' ')}`
  + ` = ${(arenas.reduce((a, m) => a + m.rssKb, 0) / 1024).toFixed(1)} MiB`);
if (dump.size === 0) console.log('(no thread dump on stderr: names are the kernel\'s)');
rmSync(scratch, { recursive: true, force: true });
killAll();
