// Where the start's CPU goes up to the first answer (issue 19; a reading beside bench/startup.sh, not its goal):
// pi-host as bin/pi-host starts it (its java, options and archive), on one warmed data dir per option set,
// spawn -> the first host.info answer; at that answer the CPU of each thread (/proc/PID/task/*/stat),
// grouped (C1, C2, FelixStartLevel, main, the rest). Option sets alternate A B B A ... in one run.
// Usage: node bench/start-threads.mjs [-r N] [--java JAVA] LABEL=OPTS [LABEL=OPTS ...]
//   (OPTS: extra JVM options as PI_HOST_JAVA_OPTS; "base=" for none; each set gets its own archive;
//   LABEL@DIR=OPTS starts another checkout's build, as DIR/bin/pi-host starts it)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { piHostCommand } from './pi-host-command.mjs';
import { killAll, median, ns, startServer } from './jsonrpc.mjs';
import { compilerOf, processCpuMs, threadCpu } from './procfs.mjs';

const argv = process.argv.slice(2);
let reps = 6;
let java = null;
const sets = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '-r') reps = Number(argv[++i]);
  else if (argv[i] === '--java') java = argv[++i];
  else { const eq = argv[i].indexOf('='); sets.push({ label: argv[i].slice(0, eq), opts: argv[i].slice(eq + 1) }); }
}
if (!sets.length) sets.push({ label: 'base', opts: '' });
const scratch = mkdtempSync(join(tmpdir(), 'start-threads-'));
process.on('exit', () => { killAll(); rmSync(scratch, { recursive: true, force: true }); });

const group = (name) => compilerOf(name)
  ?? (name === 'FelixStartLevel' ? 'FelixStartLevel' : name === 'java' || name === 'main' ? 'main' : 'other');

/** One start: spawn -> the first host.info answer, and each thread group's CPU at that answer. */
async function once(cmd) {
  const t0 = ns();
  const server = startServer('pi-host', cmd.cmd, cmd.args, 60000);
  try {
    const answer = (await server.call('host.info')).response;
    const ms = Number(ns() - t0) / 1e6;
    if (answer.error) throw new Error(JSON.stringify(answer.error));
    const by = { C2: 0, C1: 0, FelixStartLevel: 0, main: 0, other: 0 };
    for (const t of threadCpu(server.child.pid).values()) by[group(t.name)] += t.ms;
    return { ms, total: processCpuMs(server.child.pid), ...by };
  } finally {
    await server.stop();
  }
}

const cmds = [];
for (const [i, s] of sets.entries()) {
  const env = { PI_HOST_JAVA_OPTS: s.opts };
  if (java) env.PI_HOST_JAVA = java;
  const at = s.label.indexOf('@');
  const command = at < 0 ? piHostCommand
    : (await import(join(s.label.slice(at + 1), 'bench', 'pi-host-command.mjs'))).piHostCommand;
  cmds.push(command(['serve', '--stdio', '--data-dir', join(scratch, `data${i}`)], env));
}
for (const c of cmds) await once(c); // the bundle cache, not counted
for (const c of cmds) await once(c); // warm-up
const res = sets.map(() => []);
for (let r = 0; r < reps; r++) {
  const order = sets.map((_, i) => i);
  if (r % 2 === 1) order.reverse();
  for (const i of order) {
    const x = await once(cmds[i]);
    res[i].push(x);
    console.error(`${sets[i].label} ${x.ms.toFixed(0)} ms cpu ${x.total.toFixed(0)} C2 ${x.C2.toFixed(0)} C1 ${x.C1.toFixed(0)}`
      + ` FSL ${x.FelixStartLevel.toFixed(0)} main ${x.main.toFixed(0)} other ${x.other.toFixed(0)}`);
  }
}
console.log('medians: wall, process CPU, C2, C1, FelixStartLevel, main, other (ms)');
sets.forEach((s, i) => console.log(`${s.label.padEnd(10)} ` + ['ms', 'total', 'C2', 'C1', 'FelixStartLevel', 'main', 'other']
  .map((k) => median(res[i].map((x) => x[k])).toFixed(0).padStart(6)).join(' ')));
