#!/usr/bin/env node
// MCP bridge benchmark (a benchmark, not a timed test), two questions in one run:
//   call     the time of one `echo` call of @modelcontextprotocol/server-everything,
//            (a) through pi-host: tools.execute of mcp_everything_echo over pi-host's stdio (the whole
//                pipeline and audit row, then the bridge's SDK client to the server), and
//            (b) directly: the MCP TypeScript SDK's Client over stdio to another process of the same server,
//            (c) directly: the MCP Java SDK's client (the one the bridge runs on; pi.host.bench.McpDirectCall);
//            sequential calls in alternating blocks after a warm-up. Goal: p50(a) <= 1.2 x p50(direct) + 150 µs.
//   startup  spawn -> first host.info answer of pi-host with no MCP server configured and with three (the
//            servers start after that answer), alternating. Goal: three servers answer no later than none.
// Every child is killed at exit (normal, error, signal or deadline); the run has a deadline. See bench/README.md.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cpuMsOf, isStopping, killAll, live, ns, startServer, stats, stopAll } from './jsonrpc.mjs';
import { launcherJvmOptions } from './jvm-options.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const repoDir = resolve(benchDir, '..');
const requireHere = createRequire(join(benchDir, 'package.json'));

const USAGE = `usage: bench/mcp.sh [options]
  -n, --calls N         measured echo calls per side (default 2000)
  -w, --warmup N        unmeasured calls per side first (default 20000)
  -b, --block N         calls per block; the sides alternate block by block (default 100)
  -s, --starts N        measured starts per configuration (default 10; 0 skips the startup part)
      --json            also print the result as one JSON object (last line of stdout)
      --java CMD        java executable (default: $JAVA_HOME/bin/java if set, else java on PATH)
      --launcher JAR    another pi.host.launcher.jar (default: bundles/target/pi.host.launcher.jar)
      --timeout S       limit for one response, seconds (default 60)
      --deadline S      limit for the whole run, seconds (default 900)
  -h, --help            this text`;

function parseArgs(argv) {
  const o = {
    calls: 2000, warmup: 20000, block: 100, starts: 10, json: false,
    java: process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java',
    launcher: join(repoDir, 'bundles', 'target', 'pi.host.launcher.jar'), timeoutS: 60, deadlineS: 900,
  };
  const need = (i) => { if (i + 1 >= argv.length) fail(`${argv[i]} needs a value\n${USAGE}`); return argv[i + 1]; };
  const num = (v, name) => { const n = Number(v); if (!Number.isFinite(n) || n < 0) fail(`${name}: ${v}`); return n; };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    switch (a) {
      case '-n': case '--calls': o.calls = Math.floor(num(need(i), a)); i++; break;
      case '-w': case '--warmup': o.warmup = Math.floor(num(need(i), a)); i++; break;
      case '-b': case '--block': o.block = Math.floor(num(need(i), a)); i++; break;
      case '-s': case '--starts': o.starts = Math.floor(num(need(i), a)); i++; break;
      case '--json': o.json = true; break;
      case '--java': o.java = need(i); i++; break;
      case '--launcher': o.launcher = resolve(need(i)); i++; break;
      case '--timeout': o.timeoutS = num(need(i), a); i++; break;
      case '--deadline': o.deadlineS = num(need(i), a); i++; break;
      case '-h': case '--help': console.log(USAGE); process.exit(0); break;
      default: fail(`unknown option: ${a}\n${USAGE}`);
    }
  }
  if (o.calls < 1 || o.block < 1) fail('--calls and --block must be at least 1');
  return o;
}

function fail(msg) {
  console.error(`bench: ${msg}`);
  killAll();
  process.exit(2);
}

const everythingMain = join(benchDir, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const filesystemMain = join(benchDir, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

/** Writes <data>/mcp.json with these servers (none: no file at all). */
function configure(dataDir, servers) {
  mkdirSync(dataDir, { recursive: true });
  if (Object.keys(servers).length) writeFileSync(join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: servers }));
}

async function awaitReady(pi, id, timeoutMs) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = (await pi.call('mcp.list')).response.result;
    const s = r?.servers?.find((x) => x.id === id);
    if (s?.state === 'ready' && s.tools.includes('mcp_everything_echo')) return s;
    if (Date.now() > until) throw new Error(`server ${id} not ready: ${JSON.stringify(s)}`);
    await new Promise((r2) => setTimeout(r2, 100));
  }
}

async function callPart(o, scratch, timeoutMs) {
  const dataDir = join(scratch, 'call-data');
  configure(dataDir, { everything: { command: process.execPath, args: [everythingMain, 'stdio'] } });
  const pi = startServer('pi-host', o.java, [...launcherJvmOptions(o.launcher), '-jar', o.launcher, 'serve', '--stdio', '--data-dir', dataDir], timeoutMs);
  const info = (await pi.call('host.info')).response.result;
  await awaitReady(pi, 'everything', timeoutMs);
  const sessionId = (await pi.call('session.create', { permissionMode: 'auto' })).response.result.sessionId;
  const search = (await pi.call('tools.execute', { sessionId, turnId: 't1', toolCallId: 's1', name: 'ToolSearch',
    arguments: { query: 'mcp_everything_echo' } })).response.result;
  if (!search?.ok) throw new Error(`ToolSearch: ${JSON.stringify(search)}`);

  // the direct side: the MCP TypeScript SDK's client, as an agent without pi-host would call the server
  const { Client } = requireHere('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = requireHere('@modelcontextprotocol/sdk/client/stdio.js');
  const pkg = (name) => JSON.parse(readFileSync(join(benchDir, 'node_modules', name, 'package.json'), 'utf8'));
  const sdkPkg = pkg('@modelcontextprotocol/sdk');
  const everythingPkg = pkg('@modelcontextprotocol/server-everything');
  const transport = new StdioClientTransport({ command: process.execPath, args: [everythingMain, 'stdio'],
    stderr: 'ignore' });
  const client = new Client({ name: 'pi-host-bench', version: '0' });
  await client.connect(transport);
  if (transport.pid) live.add({ kill: (sig) => { try { process.kill(transport.pid, sig); } catch { /* gone */ } } });

  // the Java SDK side: the client the bridge runs on, without pi-host (pi.host.bench.McpDirectCall)
  const javaDirect = await startJavaDirect(o, timeoutMs);

  let n = 0;
  const sides = [
    { key: 'piHost', label: 'pi-host  tools.execute mcp_everything_echo', pid: pi.child.pid, once: async () => {
      n++;
      const r = await pi.call('tools.execute', { sessionId, turnId: 't1', toolCallId: `c${n}`,
        name: 'mcp_everything_echo', arguments: { message: 'hello' } });
      if (r.response.result?.content?.[0]?.text !== 'Echo: hello') {
        throw new Error(`pi-host echo: ${JSON.stringify(r.response).slice(0, 500)}`);
      }
      return r.ns;
    } },
    { key: 'direct', label: 'direct   SDK client tools/call echo', once: async () => {
      const t0 = ns();
      const r = await client.callTool({ name: 'echo', arguments: { message: 'hello' } });
      const t1 = ns();
      if (r.content?.[0]?.text !== 'Echo: hello') throw new Error(`direct echo: ${JSON.stringify(r)}`);
      return Number(t1 - t0);
    } },
    { key: 'javaDirect', label: 'direct   Java SDK client tools/call echo', block: (k) => javaDirect.run(k) },
  ];
  const runBlock = async (s, k) => (s.block ? s.block(k) : Promise.all([]).then(async () => {
    const out = [];
    for (let i = 0; i < k; i++) out.push(await s.once());
    return out;
  }));
  for (let done = 0; done < o.warmup; done += o.block) {
    for (const s of sides) await runBlock(s, Math.min(o.block, o.warmup - done));
  }
  console.error(`bench: warm-up done (${o.warmup} calls per side)`);
  const samples = new Map(sides.map((s) => [s.key, []]));
  // the host JVM's CPU (all its threads) over its measured blocks: a reading beside the wall-clock p50
  // that a loaded machine disturbs less (the server it bridges to is another process, not counted)
  let hostCpuMs = 0;
  for (let round = 0, done = 0; done < o.calls; round++, done += o.block) {
    const order = sides.map((_, j) => sides[(round + j) % sides.length]);
    const k = Math.min(o.block, o.calls - done);
    for (const s of order) {
      const c0 = s.pid ? cpuMsOf(s.pid) : null;
      samples.get(s.key).push(...await runBlock(s, k));
      if (c0 !== null) hostCpuMs += cpuMsOf(s.pid) - c0;
    }
    if ((round + 1) % 5 === 0) process.stderr.write(`bench: ${Math.min(done + k, o.calls)}/${o.calls}\n`);
  }
  await client.close();
  await Promise.all([pi.stop(), javaDirect.stop()]);
  const a = stats(samples.get('piHost'));
  const against = (b) => {
    const budget = Math.round((1.2 * b.p50 + 150) * 10) / 10;
    return { ...b, ratioP50: Math.round((a.p50 / b.p50) * 100) / 100,
      overheadP50Us: Math.round((a.p50 - b.p50) * 10) / 10, budgetP50Us: budget, met: a.p50 <= budget };
  };
  return { hostVersion: info?.hostVersion, sdk: `${sdkPkg.name}@${sdkPkg.version}`,
    server: `${everythingPkg.name}@${everythingPkg.version}`, piHost: { ...a, cpuUsPerCall: Math.round((hostCpuMs * 1000 / o.calls) * 10) / 10 },
    direct: against(stats(samples.get('direct'))), javaDirect: against(stats(samples.get('javaDirect'))),
    labels: sides.map((s) => s.label) };
}

/** Starts pi.host.bench.McpDirectCall with the assembly's jars; run(k) resolves to k call times in ns. */
async function startJavaDirect(o, timeoutMs) {
  const classes = join(benchDir, 'target', 'classes');
  const bundles = join(dirname(o.launcher), 'pi-host', 'bundle', '*');
  if (!existsSync(join(classes, 'pi', 'host', 'bench', 'McpDirectCall.class'))) {
    fail('bench/target/classes has no McpDirectCall: mvn -B -q -pl bench -am package -DskipTests (bench/mcp.sh does)');
  }
  const child = spawn(o.java, ['-cp', `${classes}:${bundles}`, 'pi.host.bench.McpDirectCall', process.execPath,
    everythingMain, 'stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
  live.add(child);
  let buf = '';
  const waiting = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buf += chunk;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const w = waiting.shift();
      if (w) w(line);
    }
  });
  const next = () => new Promise((r, rej) => {
    const t = setTimeout(() => rej(new Error('McpDirectCall did not answer')), timeoutMs * 10);
    waiting.push((line) => { clearTimeout(t); r(line); });
  });
  const ready = await next();
  if (ready !== 'ready') throw new Error(`McpDirectCall: ${ready}`);
  return {
    run: async (k) => { child.stdin.write(`${k}\n`); return (await next()).split(' ').map(Number); },
    stop: () => new Promise((r) => { child.once('exit', r); child.stdin.end(); setTimeout(() => child.kill('SIGKILL'), 10000); }),
  };
}

/** Spawn -> first host.info answer line, then stdin closed and the exit awaited (servers stopped). */
function timeStart(o, dataDir, timeoutMs) {
  return new Promise((resolveStart, rejectStart) => {
    const t0 = ns();
    const child = spawn(o.java, [...launcherJvmOptions(o.launcher), '-jar', o.launcher, 'serve', '--stdio', '--data-dir', dataDir],
      { stdio: ['pipe', 'pipe', 'ignore'] });
    live.add(child);
    let buf = '';
    let answered = null;
    const timer = setTimeout(() => { child.kill('SIGKILL'); rejectStart(new Error('no host.info answer')); }, timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buf += chunk;
      if (answered === null && buf.includes('"id":1')) {
        answered = Number(ns() - t0) / 1e6;
        clearTimeout(timer);
        child.stdin.end();
      }
    });
    child.on('exit', () => {
      live.delete(child);
      if (answered === null) rejectStart(new Error('pi-host exited before answering'));
      else resolveStart(answered);
    });
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"host.info"}\n');
  });
}

async function startupPart(o, scratch, timeoutMs) {
  const none = join(scratch, 'start-none');
  const three = join(scratch, 'start-three');
  configure(none, {});
  configure(three, {
    everything: { command: process.execPath, args: [everythingMain, 'stdio'] },
    everything2: { command: process.execPath, args: [everythingMain, 'stdio'] },
    filesystem: { command: process.execPath, args: [filesystemMain, scratch] },
  });
  await timeStart(o, none, timeoutMs); // fills each bundle cache (not measured)
  await timeStart(o, three, timeoutMs);
  const ms = { none: [], three: [] };
  for (let i = 0; i < o.starts; i++) {
    const order = i % 2 === 0 ? ['none', 'three'] : ['three', 'none'];
    for (const k of order) ms[k].push(await timeStart(o, k === 'none' ? none : three, timeoutMs));
    process.stderr.write(`bench: start ${i + 1}/${o.starts}\n`);
  }
  const median = (xs) => { const s = [...xs].sort((x, y) => x - y); return Math.round(s[Math.floor((s.length - 1) / 2)]); };
  const r = { none: { medianMs: median(ms.none), all: ms.none.map(Math.round) },
    three: { medianMs: median(ms.three), all: ms.three.map(Math.round) } };
  r.ratioThreeOverNone = Math.round((r.three.medianMs / r.none.medianMs) * 100) / 100;
  return r;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const deadline = setTimeout(() => { console.error(`bench: deadline of ${o.deadlineS} s reached`); stopAll(3); },
    o.deadlineS * 1000);
  const timeoutMs = o.timeoutS * 1000;
  if (!existsSync(o.launcher)) fail(`no launcher at ${o.launcher}: build first, or use bench/mcp.sh`);
  if (!existsSync(everythingMain) || !existsSync(filesystemMain)) {
    fail('the MCP servers are not installed: npm ci --prefix bench (or use bench/mcp.sh)');
  }
  const scratch = mkdtempSync(join(tmpdir(), 'pi-host-mcp-bench-'));
  process.on('exit', () => { try { rmSync(scratch, { recursive: true, force: true }); } catch { /* best effort */ } });
  const result = { date: new Date().toISOString(), machine: { nproc: availableParallelism(), node: process.version },
    calls: o.calls, warmup: o.warmup, block: o.block, starts: o.starts };
  result.call = await callPart(o, scratch, timeoutMs);
  const c = result.call;
  const line = (label, s) => `${label.padEnd(44)} p50 ${s.p50.toFixed(1).padStart(8)}   p90 ${s.p90.toFixed(1).padStart(8)}   p99 ${s.p99.toFixed(1).padStart(8)}   (n=${s.n})`;
  const out = [
    `MCP echo, ${o.calls} sequential calls per side in alternating blocks of ${o.block}, after ${o.warmup} warm-up (${result.date})`,
    `server ${c.server}, direct client ${c.sdk}; times in µs`,
    line(c.labels[0], c.piHost),
    line(c.labels[1], c.direct),
    line(c.labels[2], c.javaDirect),
    `pi-host's JVM, CPU per call over its measured blocks (all threads; /proc): ${c.piHost.cpuUsPerCall} µs`,
    ...[['TypeScript SDK', c.direct], ['Java SDK', c.javaDirect]].map(([what, d]) => `against the ${what} client:`
      + ` ratio pi-host/direct at p50 ${d.ratioP50}, overhead ${d.overheadP50Us} µs; goal: pi-host's p50 <= 1.2 x direct`
      + ` + 150 µs = ${d.budgetP50Us} µs (pi-host ${c.piHost.p50.toFixed(1)}: ${d.met ? 'met' : 'missed'})`),
  ];
  if (o.starts > 0) {
    result.startup = await startupPart(o, scratch, timeoutMs);
    const s = result.startup;
    out.push(`startup, spawn -> first host.info answer, ${o.starts} alternating starts each: no server ${s.none.medianMs} ms,`
      + ` three servers ${s.three.medianMs} ms (median; ratio ${s.ratioThreeOverNone}; goal <= 1: ${s.ratioThreeOverNone <= 1 ? 'met' : 'missed'})`);
  }
  delete result.call.labels;
  console.log(out.join('\n'));
  if (o.json) console.log(JSON.stringify(result));
  clearTimeout(deadline);
  killAll();
}

main().catch((e) => {
  if (!isStopping()) console.error(`bench: ${e.stack || e}`);
  stopAll(1);
});
