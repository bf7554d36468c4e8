#!/usr/bin/env node
// Where the first Grep's CPU goes (issue 19; a reading beside bench/grep-first.sh, not its goal): a fresh
// pi-host per call as bin/pi-host starts it, one session on the JDK sources, its first Grep; the CPU of
// each of the host's threads from just before the tools.execute line to its answer (/proc/PID/task/*/stat),
// rg's as the process's reaped children's, and which after-answer threads were still alive when the call
// was sent. A thread that exits during the call is counted up to the last reading before it (so a warm-up
// that ends inside the call shows its share only in part: the "exited" line names them).
// Usage: node bench/grep-first-threads.mjs [-r N] [--mode content|files] [--gap MS] [--java JAVA]
// (PI_HOST_JAVA_OPTS is passed through: an option A/B is two runs of this.)
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAll, startServer } from './jsonrpc.mjs';
import { reapedChildrenMs, threadCpu, uptimeOf } from './procfs.mjs';
import { prepareTree } from './jdk-tree.mjs';
import { javaFeature, piHostCommand } from './pi-host-command.mjs';

const o = { reps: 4, mode: 'content', gapMs: 0, java: null, pattern: 'ConcurrentHashMap' };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  const v = process.argv[i + 1];
  if (a === '-r') { o.reps = Number(v); i++; } else if (a === '--mode') { o.mode = v; i++; }
  else if (a === '--gap') { o.gapMs = Number(v); i++; } else if (a === '--java') { o.java = v; i++; }
  else if (a === '--pattern') { o.pattern = v; i++; } else { console.error(`unknown option ${a}`); process.exit(2); }
}
/** Every live thread's CPU of pid, and the reaped children's CPU. */
const snapshot = (pid) => ({ threads: threadCpu(pid), children: reapedChildrenMs(pid) });


/** Thread names grouped: the JIT threads, the pools without their numbers. */
const group = (name) => name.replace(/\d+$/, '').replace(/-$/, '').replace(/ +$/, '');

const { tree } = prepareTree(join(dirname(fileURLToPath(import.meta.url)), '.cache'), null);
const scratch = mkdtempSync(join(tmpdir(), 'pi-host-grep-threads-'));
const env = o.java ? { PI_HOST_JAVA: o.java } : {};
const command = piHostCommand(['serve', '--stdio', '--data-dir', join(scratch, 'data')], env);
const label = `java ${javaFeature(command.cmd)}`;
const totals = new Map();
const alive = new Map();
const walls = [];
let childMs = 0;
for (let rep = 0; rep <= o.reps; rep++) {
  const s = startServer(label, command.cmd, command.args, 120000);
  try {
    const created = (await s.call('session.create', { projectRoot: tree, permissionMode: 'auto' })).response;
    if (o.gapMs > 0) await new Promise((r) => setTimeout(r, o.gapMs));
    const before = snapshot(s.child.pid);
    const t0 = uptimeOf(s.child.pid);
    // polled during the call, so a thread that exits inside it is counted to its last reading
    const last = new Map();
    const poll = setInterval(() => { try { for (const [tid, t] of snapshot(s.child.pid).threads) last.set(tid, t); } catch { /* gone */ } }, 5);
    const pending = s.call('tools.execute', { sessionId: created.result.sessionId, turnId: 't1', toolCallId: 'c1',
      name: 'Grep', arguments: { pattern: o.pattern, outputMode: o.mode } });
    const r = await pending;
    clearInterval(poll);
    if (process.env.GREP_THREADS_WINDOW) console.log(`  pid ${s.child.pid} call window (s since the process started): ${t0.toFixed(3)}-${uptimeOf(s.child.pid).toFixed(3)}`);
    const after = snapshot(s.child.pid);
    for (const [tid, t] of last) if (!after.threads.has(tid)) after.threads.set(tid, { ...t, exited: true });
    if (!r.response.result || r.response.result.ok !== true) throw new Error(JSON.stringify(r.response).slice(0, 400));
    if (rep === 0) continue; // the warm-up: the page cache, the data dir's bundle cache
    walls.push(r.ns / 1e6);
    childMs += after.children - before.children;
    for (const [tid, t] of before.threads) {
      if (/^pi-after|warm/.test(t.name)) alive.set(t.name, (alive.get(t.name) ?? 0) + 1);
      const a = after.threads.get(tid);
      const d = (a ? a.ms : t.ms) - t.ms;
      const g = group(t.name) + (a && !a.exited ? '' : ' (exited)');
      totals.set(g, (totals.get(g) ?? 0) + d);
    }
    for (const [tid, t] of after.threads) {
      if (!before.threads.has(tid)) totals.set(`${group(t.name)} (new)`, (totals.get(`${group(t.name)} (new)`) ?? 0) + t.ms);
    }
  } finally {
    await s.stop();
  }
}
rmSync(scratch, { recursive: true, force: true });
walls.sort((a, b) => a - b);
console.log(`first Grep ${o.mode} [${label}] gap ${o.gapMs} ms, ${o.reps} starts, PI_HOST_JAVA_OPTS=${process.env.PI_HOST_JAVA_OPTS ?? ''}`);
console.log(`  wall median ${walls[Math.floor(walls.length / 2)].toFixed(1)} ms (${walls.map((w) => w.toFixed(0)).join(' ')})`);
console.log(`  CPU per call, ms: rg (reaped children) ${(childMs / o.reps).toFixed(0)}`);
for (const [g, ms] of [...totals].sort((a, b) => b[1] - a[1])) {
  if (ms / o.reps >= 2) console.log(`    ${g.padEnd(36)} ${(ms / o.reps).toFixed(0).padStart(6)}`);
}
console.log(`  after-answer threads alive when the call was sent (of ${o.reps}): ${[...alive].map(([n, c]) => `${n} ${c}`).join(', ') || 'none'}`);
console.log(`  load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
killAll();
