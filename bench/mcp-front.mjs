#!/usr/bin/env node
// MCP front benchmark (a benchmark, not a timed test; issue 15 "Performance"): one MCP client, the official
// TypeScript SDK, drives two stdio MCP servers in the same run:
//   (a) pi-host mcp --workspace ROOT: tools/call Read {path: "small.txt"} (the host's whole pipeline, audit row
//       included, behind the SDK's server side);
//   (b) @modelcontextprotocol/server-filesystem ROOT: tools/call read_text_file {path: "ROOT/small.txt"}.
// Time of one call: from client.callTool() to its resolved result (the same client code on both sides).
// Phases, per repetition with both servers freshly spawned (pi-host on a warm bundle cache):
//   cold: the first --cold calls after initialize, the sides alternating call by call (order flipping);
//   warm: after --warm calls per side in total, --calls more per side in alternating blocks of --block.
// --floor adds sides of the same kind: the MCP Java SDK's bare stdio server with one tool that reads the file
// (bench/mcp-floor.mjs, pi.host.bench.McpFloor), on pi-host's java and options; the sides then rotate through
// the same alternation. Beside each p50: the side's CPU per call (its whole process, /proc).
// Every child is killed at exit (normal, error, signal or deadline); the whole run has a deadline.

import { existsSync, mkdtempSync, rmSync, writeFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launcherJvmOptions } from './jvm-options.mjs';
import { archiveMode, floorJvmOptions, parseFloors, prepareFloors } from './mcp-floor.mjs';
import { processCpuMs, threadCpu, uptimeOf } from './procfs.mjs';
import { piHostCommand } from './pi-host-command.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const repoDir = resolve(benchDir, '..');
const require = createRequire(join(benchDir, 'package.json'));

const USAGE = `usage: bench/mcp-front.sh [options]
  -r, --reps N       fresh starts of both servers (default 3)
      --cold N       calls per side measured right after initialize (default 200)
      --warm N       calls per side in total before the warm measurement (default 1000)
  -n, --calls N      warm calls measured per side (default 2000)
  -b, --block N      warm calls per block, sides alternating block by block (default 100)
      --direct       spawn java -jar LAUNCHER directly (java 17 on PATH, no start-up archive) instead of
                     the command bin/pi-host runs (its newest java, options and start-up archive)
      --java CMD     java for pi-host, implies --direct (default $JAVA_HOME/bin/java, else java)
      --java-opts S  more JVM options for pi-host (default: $PI_HOST_JAVA_OPTS)
      --diag-opts S  JVM options put into pi-host's command after bin/pi-host chose it (its archive stays
                     the one chosen without them; for diagnosis: -Xlog:...:file=/tmp/x-%p.log, JFR)
      --launcher JAR another pi.host.launcher.jar, implies --direct (an A/B of two builds)
      --floor LIST   more sides: the MCP Java SDK's bare server with one read tool, on pi-host's java and
                     options (comma list of pool|sync|immediate, each with its own start-up archive when
                     pi-host has one, or SHAPE:none without; bench/README.md)
      --floor-train N  calls of a floor's archive training start (default 2000)
      --threads      also print the java sides' CPU per call by thread (names without digits) over the
                     cold calls and over the measured warm blocks (/proc; no goal)
      --json         also print one JSON object as the last line
      --deadline S   limit for the whole run (default 900)
  -h, --help         this text`;

function parseArgs(argv) {
  const o = { reps: 3, cold: 200, warm: 1000, calls: 2000, block: 100, json: false, deadlineS: 900,
    direct: false, floors: [], floorTrain: 2000, launcher: join(repoDir, 'bundles', 'target', 'pi.host.launcher.jar'),
    java: process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java',
    javaOpts: (process.env.PI_HOST_JAVA_OPTS || '').split(/\s+/).filter(Boolean), diagOpts: [] };
  const need = (i) => { if (i + 1 >= argv.length) fail(`${argv[i]} needs a value`); return argv[i + 1]; };
  for (let i = 0; i < argv.length; i++) {
    switch (argv[i]) {
      case '-r': case '--reps': o.reps = Number(need(i)); i++; break;
      case '--cold': o.cold = Number(need(i)); i++; break;
      case '--warm': o.warm = Number(need(i)); i++; break;
      case '-n': case '--calls': o.calls = Number(need(i)); i++; break;
      case '-b': case '--block': o.block = Number(need(i)); i++; break;
      case '--direct': o.direct = true; break;
      case '--launcher': o.launcher = resolve(need(i)); o.direct = true; i++; break;
      case '--java': o.java = need(i); o.direct = true; i++; break;
      case '--java-opts': o.javaOpts = need(i).split(/\s+/).filter(Boolean); i++; break;
      case '--diag-opts': o.diagOpts = need(i).split(/\s+/).filter(Boolean); i++; break;
      case '--floor': try { o.floors = parseFloors(need(i)); } catch (e) { fail(e.message); } i++; break;
      case '--floor-train': o.floorTrain = Number(need(i)); i++; break;
      case '--threads': o.threads = true; break;
      case '--json': o.json = true; break;
      case '--deadline': o.deadlineS = Number(need(i)); i++; break;
      case '-h': case '--help': console.log(USAGE); process.exit(0); break;
      default: fail(`unknown option ${argv[i]}\n${USAGE}`);
    }
  }
  return o;
}

function fail(msg) {
  console.error(`bench: ${msg}`);
  process.exit(2);
}

const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

const live = new Set();
const leftovers = []; // temporary files to remove on every way out (the floors' jar and archives)
async function closeAll() {
  await Promise.all([...live].map((c) => c.close().catch(() => {})));
  live.clear();
  leftovers.splice(0).forEach((remove) => remove());
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => closeAll().then(() => process.exit(130)));

async function connect(command, args) {
  const client = new Client({ name: 'pi-host-bench', version: '1.0.0' }, { capabilities: {} });
  try {
    await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }), { timeout: 120000 });
  } catch (e) {
    throw new Error(`${command} did not initialize: ${e.message}`);
  }
  live.add(client);
  return client;
}

async function timed(side) {
  const t0 = process.hrtime.bigint();
  let r;
  try {
    r = await side.client.callTool({ name: side.tool, arguments: side.args });
  } catch (e) {
    throw new Error(`${side.name}: ${side.tool} failed after ${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(0)} ms: ${e.message}`);
  }
  const us = Number(process.hrtime.bigint() - t0) / 1000;
  const text = r.content?.[0]?.text ?? '';
  if (r.isError || !text.includes(side.expect)) throw new Error(`${side.name}: unexpected answer ${JSON.stringify(r)}`);
  return us;
}

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const median = (xs) => pct(xs, 0.5);

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const launcher = o.launcher;
  const peer = join(benchDir, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
  if (!existsSync(launcher)) fail(`no launcher at ${launcher}: build first (bench/mcp-front.sh does)`);
  if (!existsSync(peer)) fail('the MCP filesystem server is not installed: npm ci --prefix bench');
  const timer = setTimeout(() => { console.error('bench: deadline reached'); closeAll().then(() => process.exit(3)); },
    o.deadlineS * 1000);
  timer.unref();

  const root = realpathSync(mkdtempSync(join(tmpdir(), 'pi-mcp-bench-')));
  const data = mkdtempSync(join(tmpdir(), 'pi-mcp-bench-data-'));
  const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}: the quick brown fox jumps over the lazy dog`);
  writeFileSync(join(root, 'small.txt'), lines.join('\n') + '\n');
  const mcpArgs = ['mcp', '--workspace', root, '--data-dir', data];
  let hostCmd, hostArgs, choice;
  if (o.direct) {
    hostCmd = o.java;
    hostArgs = [...launcherJvmOptions(launcher), ...o.javaOpts, '-jar', launcher, ...mcpArgs];
    choice = `${o.java} -jar ${launcher} (direct, no start-up archive)`;
  } else {
    // as bin/pi-host starts it (bash not in the figure); PI_HOST_JAVA_OPTS reaches it the same way
    ({ cmd: hostCmd, args: hostArgs, choice } = piHostCommand(mcpArgs,
      o.javaOpts.length ? { PI_HOST_JAVA_OPTS: o.javaOpts.join(' ') } : {}));
  }
  if (o.diagOpts.length) {
    // before -jar, after the archive option: the archive's key (bin/jvm.sh) does not see them
    hostArgs.splice(hostArgs.indexOf('-jar'), 0, ...o.diagOpts);
    choice += ` + ${o.diagOpts.join(' ')}`;
  }
  console.log(`pi-host: ${choice}`);
  let floors = { sides: [], cleanup: () => {} };
  if (o.floors.length) {
    floors = await prepareFloors(o.floors, { java: hostCmd, jvmOptions: floorJvmOptions(hostArgs),
      mode: archiveMode(hostArgs), bundleDir: join(dirname(launcher), 'pi-host', 'bundle'), root, train: o.floorTrain,
      log: (m) => console.error(m) });
    leftovers.push(floors.cleanup);
    for (const f of floors.sides) console.log(`${f.label}: ${f.cmd} ... McpFloor ${f.shape} (archive: ${f.archive})`);
  }
  // one start fills the bundle cache, as an installed host has it; not measured
  await (await connect(hostCmd, hostArgs)).close();

  const cold = { host: [], peer: [] };
  const warm = { host: [], peer: [] };
  const cpu = { host: { cold: [], warm: [] }, peer: { cold: [], warm: [] } };
  for (const f of floors.sides) { cold[f.label] = []; warm[f.label] = []; cpu[f.label] = { cold: [], warm: [] }; }
  // the sides' order turns by one each call (cold) or block (warm): with two, pi-host and the peer take turns first
  const turn = (sides, k) => sides.map((_, j) => sides[(j + k) % sides.length]);
  const cpuOf = (side) => processCpuMs(side.client.transport.pid);
  // CPU ms by thread name without its digits ("C2 CompilerThre", "pi-mcp-", "VM Thread"), of the live threads
  const byThread = (side) => {
    const m = new Map();
    for (const t of threadCpu(side.client.transport.pid).values()) {
      const name = t.name.replace(/(?<!^C)[0-9]+/g, '');
      m.set(name, (m.get(name) || 0) + t.ms);
    }
    return m;
  };
  const threadRows = new Map(); // side key -> {cold: Map, warm: Map} of CPU ms summed over the starts
  const addThreads = (key, phase, before, after) => {
    if (!threadRows.has(key)) threadRows.set(key, { cold: new Map(), warm: new Map() });
    const m = threadRows.get(key)[phase];
    for (const [name, ms] of after) m.set(name, (m.get(name) || 0) + ms - (before.get(name) || 0));
  };
  for (let rep = 0; rep < o.reps; rep++) {
    const host = { name: 'pi-host', key: 'host', client: await connect(hostCmd, hostArgs), tool: 'Read',
      args: { path: 'small.txt' }, expect: 'line 10' };
    const fs = { name: 'peer', key: 'peer', client: await connect('node', [peer, root]), tool: 'read_text_file',
      args: { path: join(root, 'small.txt') }, expect: 'line 10' };
    const sides = [host, fs];
    for (const f of floors.sides) {
      sides.push({ name: f.label, key: f.label, client: await connect(f.cmd, f.args), tool: 'read',
        args: { path: 'small.txt' }, expect: 'line 10' });
    }
    const cpuStart = sides.map(cpuOf);
    const java = o.threads ? sides.filter((side) => side !== fs) : [];
    const threadsStart = java.map(byThread);
    // the phases' windows in seconds since pi-host's JVM started (its -Xlog uptime and LogCompilation stamps count
    // so; bench/jit-queue.mjs LOG FROM TO reads what the JIT did in one)
    const hostUp = () => uptimeOf(host.client.transport.pid);
    const coldFrom = hostUp();
    for (let i = 0; i < o.cold; i++) {
      for (const side of turn(sides, i)) cold[side.key].push(await timed(side));
    }
    const cpuCold = sides.map(cpuOf);
    const threadsCold = java.map(byThread);
    const coldTo = hostUp();
    for (let i = o.cold; i < o.warm; i++) { for (const side of sides) await timed(side); }
    const cpuWarm = sides.map(cpuOf);
    const warmFrom = hostUp();
    const threadsWarm = java.map(byThread);
    for (let done = 0, round = 0; done < o.calls; done += o.block, round++) {
      for (const side of turn(sides, round)) {
        for (let k = 0; k < o.block; k++) warm[side.key].push(await timed(side));
      }
    }
    java.forEach((side, j) => {
      addThreads(side.key, 'cold', threadsStart[j], threadsCold[j]);
      addThreads(side.key, 'warm', threadsWarm[j], byThread(side));
    });
    sides.forEach((side, j) => {
      cpu[side.key].cold.push(((cpuCold[j] - cpuStart[j]) * 1000) / o.cold);
      cpu[side.key].warm.push(((cpuOf(side) - cpuWarm[j]) * 1000) / o.calls);
    });
    const warmTo = hostUp();
    if (o.threads || o.diagOpts.length) {
      console.error(`rep ${rep + 1}/${o.reps}: pi-host pid ${host.client.transport.pid}, first ${o.cold} calls at`
        + ` ${coldFrom.toFixed(2)}-${coldTo.toFixed(2)} s of its uptime, the measured warm blocks at ${warmFrom.toFixed(2)}-${warmTo.toFixed(2)} s`);
    }
    for (const side of sides) { await side.client.close(); live.delete(side.client); }
    console.error(`rep ${rep + 1}/${o.reps}: cold p50 ${median(cold.host).toFixed(0)} / ${median(cold.peer).toFixed(0)} µs,`
      + ` warm p50 ${median(warm.host).toFixed(0)} / ${median(warm.peer).toFixed(0)} µs (pi-host / peer so far)`
      + floors.sides.map((f) => `; ${f.label} ${median(cold[f.label]).toFixed(0)} / ${median(warm[f.label]).toFixed(0)} µs`).join('')
      + ` (load ${loadavg()[0].toFixed(1)})`);
  }
  rmSync(root, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });

  const row = (label, xs) => `${label.padEnd(26)} p50 ${median(xs).toFixed(1).padStart(8)} µs   p90 `
    + `${pct(xs, 0.9).toFixed(1).padStart(8)} µs   p99 ${pct(xs, 0.99).toFixed(1).padStart(9)} µs   n=${xs.length}`;
  const result = {
    date: new Date().toISOString(), load: loadavg()[0], reps: o.reps, pihost: choice,
    cold: { calls: o.cold, host: median(cold.host), peer: median(cold.peer), ratio: median(cold.host) / median(cold.peer) },
    warm: { after: o.warm, host: median(warm.host), peer: median(warm.peer), ratio: median(warm.host) / median(warm.peer) },
  };
  console.log(`MCP Read, one TypeScript SDK client, ${o.reps} fresh starts (${result.date}, load ${result.load.toFixed(1)})`);
  console.log(row(`pi-host, first ${o.cold} calls`, cold.host));
  console.log(row(`peer, first ${o.cold} calls`, cold.peer));
  console.log(`ratio pi-host/peer (p50), first ${o.cold} calls: ${result.cold.ratio.toFixed(2)}   (goal <= 1.5: ${result.cold.ratio <= 1.5 ? 'MET' : 'MISSED'})`);
  console.log(row(`pi-host, after ${o.warm}`, warm.host));
  console.log(row(`peer, after ${o.warm}`, warm.peer));
  console.log(`ratio pi-host/peer (p50), after ${o.warm} calls: ${result.warm.ratio.toFixed(2)}   (goal <= 1.0: ${result.warm.ratio <= 1.0 ? 'MET' : 'MISSED'})`);
  if (floors.sides.length) {
    // beside the goal's figures, not part of them: what the SDK alone costs on pi-host's JVM (its own CPU per call
    // is the process's over the cold calls, and over the measured warm blocks; the median of the starts)
    const cpuRow = (key) => `CPU per call ${median(cpu[key].cold).toFixed(0)} µs (first ${o.cold}), ${median(cpu[key].warm).toFixed(0)} µs (after ${o.warm})`;
    console.log(`beside them (no goal): the MCP Java SDK's bare server, on pi-host's java and options`);
    result.floors = [];
    for (const f of floors.sides) {
      const fc = median(cold[f.label]);
      const fw = median(warm[f.label]);
      console.log(row(`${f.label}, first ${o.cold}`, cold[f.label]));
      console.log(row(`${f.label}, after ${o.warm}`, warm[f.label]));
      console.log(`ratio ${f.label}/peer (p50): first ${o.cold} ${(fc / result.cold.peer).toFixed(2)}, after ${o.warm} ${(fw / result.warm.peer).toFixed(2)};`
        + ` pi-host - floor (p50): ${(result.cold.host - fc).toFixed(0)} / ${(result.warm.host - fw).toFixed(0)} µs`);
      result.floors.push({ label: f.label, shape: f.shape, archive: f.archive !== 'none',
        cold: { p50: fc, ratio: fc / result.cold.peer, cpuUs: median(cpu[f.label].cold) },
        warm: { p50: fw, ratio: fw / result.warm.peer, cpuUs: median(cpu[f.label].warm) } });
    }
    for (const [key, label] of [['host', 'pi-host'], ['peer', 'peer'], ...floors.sides.map((f) => [f.label, f.label])]) {
      console.log(`${label.padEnd(26)} ${cpuRow(key)}`);
    }
    result.cpuUs = Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, { cold: median(v.cold), warm: median(v.warm) }]));
  }
  if (o.threads) {
    console.log(`CPU per call by thread (µs, summed over the ${o.reps} starts; the threads alive at the phase's end):`);
    for (const [key, phases] of threadRows) {
      for (const [phase, calls] of [['cold', o.cold], ['warm', o.calls]]) {
        const rows = [...phases[phase]].filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1]);
        console.log(`  ${key === 'host' ? 'pi-host' : key}, ${phase === 'cold' ? `first ${o.cold}` : `after ${o.warm}`}: `
          + rows.map(([name, ms]) => `${name} ${((ms * 1000) / (calls * o.reps)).toFixed(0)}`).join(', '));
      }
    }
  }
  if (o.json) console.log(JSON.stringify(result));
  await closeAll();
  process.exit(0);
}

main().catch(async (e) => { console.error(`bench: ${e.stack || e}`); await closeAll(); process.exit(1); });
