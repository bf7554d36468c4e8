#!/usr/bin/env node
// An investigation aid beside bench/memory.sh (no goal of its own): pi-host's VmRSS (and RssAnon) at 1, 2,
// 3, ... s after the answer to session.create, for several configurations alternated start by start in
// the same run, so the moment memory is given back shows, not only the figure at memory.sh's 3 s settle.
// usage: node bench/idle-trace.mjs [--kinds] STARTS SECONDS LABEL=[ENV=VALUE[;ENV=VALUE...]] ...
//   e.g. node bench/idle-trace.mjs 4 6 base= 'ceiling=PI_HOST_JAVA_OPTS=-XX:CompileCommand=MemLimit,*.*,8M'
// --kinds: also the resident MiB by mapping kind at 3 s (memory.sh's moment), from /proc/PID/smaps: the host
// disables the attach mechanism, so jcmd cannot ask the JVM; the kinds are told apart by what the kernel
// shows (the start-up archive's file, the shared libraries, the JIT's code as the only anonymous rwx
// memory, glibc's malloc arenas as 64 MiB-aligned anonymous mappings plus [heap], the rest of the
// anonymous memory: the Java heap, metaspace, thread stacks).
// ENV is given to bin/pi-host (PI_HOST_JAVA, PI_HOST_JAVA_OPTS, PI_HOST_ARCHIVE) and to the spawned JVM.
import { startServer, killAll } from './jsonrpc.mjs';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { piHostCommand } from './pi-host-command.mjs';
import { KINDS, residentByKind } from './procfs.mjs';

const argv = process.argv.slice(2);
const withKinds = argv[0] === '--kinds';
const [starts, seconds, ...configs] = withKinds ? argv.slice(1) : argv;
const scratch = mkdtempSync(join(tmpdir(), 'pi-host-trace-'));
const root = join(scratch, 'project');
mkdirSync(root, { recursive: true });
writeFileSync(join(root, 'a.txt'), 'x\n');
const kb = (s, k) => Number((new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s) || [0, 0])[1]) / 1024;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const parsed = configs.map((c) => {
  const [label, rest = ''] = c.split(/=(.*)/s);
  const env = {};
  for (const kv of rest.split(';').filter(Boolean)) { const [k, v] = kv.split(/=(.*)/s); env[k] = v; }
  return { label, env };
});
const marks = [1, 2, 3, 4, 5, 6, 8, 10].filter((s) => s <= Number(seconds));
/** Resident MiB by kind of mapping (see the head of this file), as one line. */
function kindsOf(pid) {
  const sum = residentByKind(pid);
  return KINDS.map((k) => `${k} ${sum[k].toFixed(1)}`).join(', ');
}
console.log(`load ${loadavg().map((x) => x.toFixed(2)).join(' ')}; RSS (anon) MiB at s after session.create: ${marks.join(' ')}`);
const rows = new Map(parsed.map((p) => [p.label, []]));
const kindRows = new Map(parsed.map((p) => [p.label, []]));
for (let n = 0; n < Number(starts); n++) {
  for (const p of parsed) {
    const childEnv = { ...p.env };
    const cmd = piHostCommand(['serve', '--stdio', '--data-dir', join(scratch, `d${n}${p.label}`)], childEnv);
    // startServer's child inherits process.env: the JVM itself sees the same variables
    const saved = { ...process.env };
    Object.assign(process.env, childEnv);
    const s = startServer(p.label, cmd.cmd, cmd.args, 60000);
    process.env = saved;
    await s.call('host.info');
    await s.call('session.create', { projectRoot: root, permissionMode: 'auto' });
    const t0 = Date.now();
    const got = [];
    for (const m of marks) {
      await sleep(Math.max(0, t0 + m * 1000 - Date.now()));
      const st = readFileSync(`/proc/${s.child.pid}/status`, 'utf8');
      got.push(`${kb(st, 'VmRSS').toFixed(0)}(${kb(st, 'RssAnon').toFixed(0)})`);
      if (withKinds && m === 3) kindRows.get(p.label).push(kindsOf(s.child.pid));
    }
    rows.get(p.label).push(got.join(' '));
    await s.stop();
  }
}
for (const [label, rs] of rows) for (const r of rs) console.log(`${label.padEnd(14)} ${r}`);
if (withKinds) {
  console.log('resident MiB by kind at 3 s:');
  for (const [label, rs] of kindRows) for (const r of rs) console.log(`${label.padEnd(14)} ${r}`);
}
console.log(`load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
rmSync(scratch, { recursive: true, force: true });
killAll();
