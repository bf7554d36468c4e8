#!/usr/bin/env node
// Where the first 200 small Reads' CPU goes (issue 19; a reading beside bench/rpc.sh --cold, not its goal):
// a fresh pi-host per start as bin/pi-host starts it (its java, options and archive), one session, then
// small Reads one after the other; the CPU of each of the host's threads (/proc/PID/task/*/stat) from the
// session's answer to the answer of call 200, grouped (C1, C2, the call threads, ...), and the p50 of the
// calls' round trips; beside it, per call, each group's sleeps (voluntary context switches: each ended by a
// wake-up), preemptions and scheduler delay (runnable, waiting for a CPU), from status and schedstat, and
// how idle the machine's CPUs were meanwhile (/proc/stat).
// No peer: this says where the host's time goes, rpc.sh says how it compares.
// Usage: node bench/first-reads-threads.mjs [-r N] [-n CALLS] [--java JAVA] [--diag "OPTS"] [--diag-dir DIR]
// PI_HOST_JAVA_OPTS passes through as bin/pi-host reads it (an option A/B is two runs of this, each with
// its own archive). --diag adds JVM options to the measured starts only, after the archive is chosen (for
// logs: "-XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation -XX:LogFile=@DIR@/jit-@REP@.log"; @REP@ is the
// start's number, @DIR@ --diag-dir), so a log does not change which archive is mapped.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, realpathSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { killAll, startServer } from './jsonrpc.mjs';
import { compilerOf, machineCpu, threadCpu, threadSwitches, uptimeOf } from './procfs.mjs';
import { javaFeature, piHostCommand } from './pi-host-command.mjs';

const o = { reps: 4, calls: 200, java: null, diag: '', diagDir: tmpdir() };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  const v = process.argv[i + 1];
  if (a === '-r') { o.reps = Number(v); i++; } else if (a === '-n') { o.calls = Number(v); i++; }
  else if (a === '--java') { o.java = v; i++; } else if (a === '--diag') { o.diag = v; i++; }
  else if (a === '--diag-dir') { o.diagDir = v; i++; } else { console.error(`unknown option ${a}`); process.exit(2); }
}
const snapshot = threadCpu;

/** Thread names grouped: the JIT threads by compiler, the pools without their numbers. */
const group = (name) => compilerOf(name) ?? name.replace(/\d+$/, '').replace(/[- #]+$/, '');


const p50 = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.max(0, Math.ceil(s.length / 2) - 1)]; };

const scratch = mkdtempSync(join(tmpdir(), 'pi-host-first-reads-'));
const root = join(scratch, 'project');
mkdirSync(root);
writeFileSync(join(root, 'small.txt'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}: the quick brown fox jumps over the lazy dog`).join('\n') + '\n');
const rootReal = realpathSync(root);
const env = o.java ? { PI_HOST_JAVA: o.java } : {};
const command = piHostCommand(['serve', '--stdio', '--data-dir', join(scratch, 'data')], env);
const label = `java ${javaFeature(command.cmd)}`;
const totals = new Map();
/** group -> {voluntary, involuntary, waitNs} summed over the starts, for calls 1..n. */
const switches = new Map();
const firsts = [];
const perStart = [];
for (let rep = 0; rep <= o.reps; rep++) {
  const diag = rep === 0 ? [] : o.diag.split(/\s+/).filter(Boolean)
    .map((d) => d.replaceAll('@DIR@', o.diagDir).replaceAll('@REP@', String(rep)));
  const args = [...command.args];
  args.splice(args.indexOf('-jar'), 0, ...diag);
  const s = startServer(label, command.cmd, args, 120000);
  try {
    const created = (await s.call('session.create', { projectRoot: rootReal })).response;
    if (created.error) throw new Error(JSON.stringify(created.error));
    const before = snapshot(s.child.pid);
    const switchesBefore = threadSwitches(s.child.pid);
    const machineBefore = machineCpu();
    const t0 = uptimeOf(s.child.pid);
    const times = [];
    for (let n = 1; n <= o.calls; n++) {
      const r = await s.call('tools.execute', { sessionId: created.result.sessionId, turnId: 't1', toolCallId: `c${n}`,
        name: 'Read', arguments: { path: 'small.txt' } });
      if (!r.response.result || r.response.result.ok !== true) throw new Error(JSON.stringify(r.response).slice(0, 400));
      times.push(r.ns / 1000);
    }
    const after = snapshot(s.child.pid);
    const switchesAfter = threadSwitches(s.child.pid);
    const machineAfter = machineCpu();
    const t1 = uptimeOf(s.child.pid);
    if (rep === 0) continue; // the first start fills the data dir's bundle cache, as an installed host has it
    firsts.push(...times);
    const mine = new Map();
    for (const [tid, t] of after) {
      const d = t.ms - (before.get(tid)?.ms ?? 0);
      const g = group(t.name) + (before.has(tid) ? '' : ' (new)');
      mine.set(g, (mine.get(g) ?? 0) + d);
      totals.set(g, (totals.get(g) ?? 0) + d);
    }
    for (const [tid, t] of switchesAfter) {
      const b = switchesBefore.get(tid) ?? { voluntary: 0, involuntary: 0, waitNs: 0 };
      const g = group(t.name) + (switchesBefore.has(tid) ? '' : ' (new)');
      const acc = switches.get(g) ?? { voluntary: 0, involuntary: 0, waitNs: 0 };
      acc.voluntary += t.voluntary - b.voluntary;
      acc.involuntary += t.involuntary - b.involuntary;
      acc.waitNs += t.waitNs - b.waitNs;
      switches.set(g, acc);
    }
    const sum = [...mine.values()].reduce((a, b) => a + b, 0);
    perStart.push(`  start ${rep}: p50 ${p50(times).toFixed(0)} µs, CPU ${sum.toFixed(0)} ms (C1 ${(mine.get('C1') ?? 0).toFixed(0)}, C2 ${(mine.get('C2') ?? 0).toFixed(0)}), calls at ${t0.toFixed(2)}-${t1.toFixed(2)} s, machine idle ${(100 * (machineAfter.idle - machineBefore.idle) / Math.max(1, machineAfter.total - machineBefore.total)).toFixed(0)} %, load ${loadavg()[0].toFixed(1)}`);
  } finally {
    await s.stop();
  }
}
rmSync(scratch, { recursive: true, force: true });
console.log(`first ${o.calls} Reads [${label}], ${o.reps} starts, PI_HOST_JAVA_OPTS=${process.env.PI_HOST_JAVA_OPTS ?? ''}${o.diag ? `, diag ${o.diag}` : ''}`);
console.log(`  p50 of all starts' calls ${p50(firsts).toFixed(0)} µs`);
for (const line of perStart) console.log(line);
console.log('  CPU per start during the calls, ms:');
for (const [g, ms] of [...totals].sort((a, b) => b[1] - a[1])) {
  if (ms / o.reps >= 2) console.log(`    ${g.padEnd(36)} ${(ms / o.reps).toFixed(0).padStart(6)}`);
}
console.log('  per call (all starts): sleeps, preemptions, scheduler delay µs');
const perCall = o.reps * o.calls;
for (const [g, t] of [...switches].sort((a, b) => b[1].voluntary - a[1].voluntary)) {
  if (t.voluntary / perCall >= 0.01 || t.waitNs / perCall >= 1000) {
    console.log(`    ${g.padEnd(36)} ${(t.voluntary / perCall).toFixed(2).padStart(6)} ${(t.involuntary / perCall).toFixed(2).padStart(6)} ${(t.waitNs / perCall / 1000).toFixed(1).padStart(7)}`);
  }
}
console.log(`  load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
killAll();
