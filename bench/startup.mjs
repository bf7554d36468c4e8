#!/usr/bin/env node
// Startup benchmark (a benchmark, not a timed test): how long from process spawn until a peer can
// talk to the host, for
//   (a) pi-host serve --stdio, warm bundle cache: spawn -> first `host.info` response line on stdout
//   (b) @modelcontextprotocol/server-filesystem: spawn -> `initialize` response line on stdout
//       (then `notifications/initialized` is sent, as a real client would).
// Both are measured in one run, N alternating repetitions after a warm-up. See bench/README.md.
//
// Every child is waited for (stdin closed, then SIGTERM, then SIGKILL) before the next one starts,
// every child still alive at exit is SIGKILLed, and the whole run has a deadline.

import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir, availableParallelism, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launcherJvmOptions } from './jvm-options.mjs';
import { jvmChoices, piHostCommand } from './pi-host-command.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const repoDir = resolve(benchDir, '..');

const USAGE = `usage: bench/startup.sh [options]
  -n, --runs N          measured repetitions of each side (default 20)
  -w, --warmup N        unmeasured repetitions of each side first (default 3, at least 1)
      --json            also print the result as one JSON object (last line of stdout)
      --java CMD        measure pi-host on this java only (as PI_HOST_JAVA=CMD bin/pi-host; default: every
                        JVM bin/pi-host could pick: its own choice, the newest java with its start-up
                        archive, and the java on PATH with its archive when that is another release)
      --java-opts STR   extra JVM options for pi-host, split on spaces
                        (default: $PI_HOST_JAVA_OPTS, as bin/pi-host uses it)
      --no-first-call   do not also measure spawn -> the answer of a first small Read on both sides
      --via-bin         spawn bin/pi-host instead of java directly (includes bash and its
                        staleness check in the measurement)
      --variant L=OPTS  also measure pi-host with these extra JVM options, labelled L, in the
                        same rotation (repeatable; @JSA@ stands for the --appcds archive)
      --launcher-variant L=JAR [OPTS]
                        also measure another build's launcher jar (its pi-host/ beside it, its own
                        data dir, its own jvm.options if it has one), labelled L (repeatable)
      --appcds          dump a dynamic AppCDS archive from one warm start, then also measure
                        pi-host with it (variant "appcds")
      --baselines       also measure spawn -> exit of \`java -version\` and \`node -e 0\`
      --drop-ins DIR    also measure pi-host with the *.jar of DIR in its drop-in folder:
                        spawn -> first plugins.list (which lists them all), in the same rotation
      --timeout S       per-spawn limit for the first response, seconds (default 30)
      --deadline S      limit for the whole run, seconds (default 600)
  -h, --help            this text`;

function parseArgs(argv) {
  const o = {
    runs: 20, warmup: 3, json: false,
    java: process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java',
    javaOpts: (process.env.PI_HOST_JAVA_OPTS || '').split(/\s+/).filter(Boolean),
    viaBin: false, baselines: false, appcds: false, variants: [], timeoutS: 30, deadlineS: 600, dropIns: null,
    firstCall: true, javaGiven: false,
  };
  const need = (i) => {
    if (i + 1 >= argv.length) fail(`${argv[i]} needs a value\n${USAGE}`);
    return argv[i + 1];
  };
  const num = (v, name) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) fail(`${name}: not a non-negative number: ${v}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    switch (a) {
      case '-n': case '--runs': o.runs = Math.floor(num(need(i), a)); i++; break;
      case '-w': case '--warmup': o.warmup = Math.floor(num(need(i), a)); i++; break;
      case '--json': o.json = true; break;
      case '--java': o.java = need(i); o.javaGiven = true; i++; break;
      case '--no-first-call': o.firstCall = false; break;
      case '--java-opts': o.javaOpts = need(i).split(/\s+/).filter(Boolean); i++; break;
      case '--via-bin': o.viaBin = true; break;
      case '--baselines': o.baselines = true; break;
      case '--drop-ins': o.dropIns = resolve(need(i)); i++; break;
      case '--appcds': o.appcds = true; break;
      case '--variant': {
        const v = need(i); i++;
        const eq = v.indexOf('=');
        if (eq <= 0) fail(`--variant wants LABEL=JVM OPTIONS, got: ${v}`);
        o.variants.push({ label: v.slice(0, eq), opts: v.slice(eq + 1).split(/\s+/).filter(Boolean) });
        break;
      }
      case '--launcher-variant': {
        const v = need(i); i++;
        const eq = v.indexOf('=');
        const [jar, ...opts] = v.slice(eq + 1).split(/\s+/).filter(Boolean);
        if (eq <= 0 || !jar) fail(`--launcher-variant wants LABEL=JAR [JVM OPTIONS], got: ${v}`);
        o.variants.push({ label: v.slice(0, eq), launcher: resolve(jar), opts });
        break;
      }
      case '--timeout': o.timeoutS = num(need(i), a); i++; break;
      case '--deadline': o.deadlineS = num(need(i), a); i++; break;
      case '-h': case '--help': console.log(USAGE); process.exit(0); break;
      default: fail(`unknown option: ${a}\n${USAGE}`);
    }
  }
  if (o.runs < 1) fail('--runs must be at least 1');
  return o;
}

function fail(msg) {
  console.error(`bench: ${msg}`);
  killAll();
  process.exit(2);
}

// ---- child bookkeeping: nothing outlives the benchmark ----------------------------------------

const live = new Set();

function killAll() {
  for (const child of live) {
    try { child.kill('SIGKILL'); } catch { /* already gone */ }
  }
  live.clear();
}

/** SIGKILLs every live child, waits (at most 2 s) until they are reaped, then exits. */
let stopping = false;
function stopAll(code) {
  if (stopping) return; // the first reason to stop wins (killing children makes main() fail too)
  stopping = true;
  const waits = [...live].map((child) => new Promise((r) => {
    if (child.exitCode !== null || child.signalCode !== null) r();
    else child.once('exit', r);
  }));
  killAll();
  Promise.race([Promise.all(waits), new Promise((r) => setTimeout(r, 2000))]).then(() => process.exit(code));
}

process.on('exit', killAll); // last resort: exit handlers cannot wait
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => { console.error(`bench: ${sig}, stopping`); stopAll(130); });
}

// ---- one measurement --------------------------------------------------------------------------

const ns = () => process.hrtime.bigint();

// CPU time (user + system, all threads) a live process has used so far, in ms, from
// /proc/PID/stat; null where there is no /proc (not Linux). Resolution: one clock tick (10 ms).
let clockTicks = null;
function cpuMsOf(pid) {
  try {
    if (clockTicks === null) {
      try { clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100; }
      catch { clockTicks = 100; }
    }
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // f[0] is field 3 (state)
    return ((Number(f[11]) + Number(f[12])) * 1000) / clockTicks; // fields 14 utime, 15 stime
  } catch {
    return null;
  }
}
const ms = (a, b) => Number(b - a) / 1e6;

/**
 * Spawns cmd, writes `request` to its stdin at once (the pipe holds it until the child reads), and
 * resolves with the milliseconds from just before spawn() until the first stdout line that is a
 * JSON-RPC response with id `id`. Then sends `after` (if any), closes stdin and waits for the exit,
 * escalating to SIGTERM and SIGKILL, so that no two children ever overlap.
 */
function timeFirstResponse({ cmd, args, request, id, then, after, timeoutMs, env }) {
  return new Promise((resolvePromise, rejectPromise) => {
    let stderrTail = '';
    let stdoutBuf = '';
    let answeredAt = null;
    let cpuMs = null;
    let response = null;
    let settled = false;
    const timers = [];

    const t0 = ns();
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], env: env ?? process.env });
    live.add(child);
    child.stdin.on('error', () => { /* EPIPE when the child died: reported through exit */ });
    child.stdin.write(JSON.stringify(request) + '\n');

    const finish = (err) => {
      if (settled) return;
      settled = true;
      timers.forEach(clearTimeout);
      if (err) rejectPromise(err);
      else resolvePromise({ ms: ms(t0, answeredAt), cpuMs, response });
    };

    const shutDown = () => {
      if (after) child.stdin.write(JSON.stringify(after) + '\n');
      child.stdin.end(); // EOF: both servers exit on end of input
      timers.push(setTimeout(() => child.kill('SIGTERM'), 5000));
      timers.push(setTimeout(() => child.kill('SIGKILL'), 10000));
    };

    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      if (answeredAt !== null) return;
      stdoutBuf += chunk;
      let nl;
      while (answeredAt === null && (nl = stdoutBuf.indexOf('\n')) >= 0) {
        const now = ns();
        const line = stdoutBuf.slice(0, nl).trim();
        stdoutBuf = stdoutBuf.slice(nl + 1);
        if (!line) continue;
        let msg;
        try { msg = JSON.parse(line); } catch { continue; }
        if (msg && msg.id === id && ('result' in msg || 'error' in msg) && then && !('error' in msg)) {
          // a conversation: the next request goes out when this answer is in (then(msg) names it)
          const step = then(msg);
          id = step.id;
          then = step.then;
          for (const r of [].concat(step.request)) child.stdin.write(JSON.stringify(r) + '\n');
          continue;
        }
        if (msg && msg.id === id && ('result' in msg || 'error' in msg)) {
          answeredAt = now;
          cpuMs = cpuMsOf(child.pid);
          response = msg;
          if ('error' in msg) {
            child.kill('SIGKILL');
            finish(new Error(`${cmd}: error response: ${line}`));
            return;
          }
          shutDown();
        }
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => { stderrTail = (stderrTail + chunk).slice(-4000); });

    timers.push(setTimeout(() => {
      if (answeredAt === null) {
        child.kill('SIGKILL');
        finish(new Error(`${cmd}: no response within ${timeoutMs} ms\n${stderrTail}`));
      }
    }, timeoutMs));

    child.on('error', (e) => { live.delete(child); finish(e); });
    child.on('exit', (code, signal) => {
      live.delete(child);
      if (answeredAt === null) {
        finish(new Error(`${cmd} exited (code ${code}, signal ${signal}) before answering\n${stderrTail}`));
      } else {
        finish(null);
      }
    });
  });
}

/** Milliseconds from spawn to exit of a command that needs no input (the baselines). */
function timeToExit(cmd, args, timeoutMs) {
  return new Promise((resolvePromise, rejectPromise) => {
    const t0 = ns();
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'ignore'] });
    live.add(child);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); live.delete(child); rejectPromise(e); });
    child.on('exit', (code, signal) => {
      const t1 = ns();
      clearTimeout(timer);
      live.delete(child);
      if (code === 0) resolvePromise({ ms: ms(t0, t1) });
      else rejectPromise(new Error(`${cmd} ${args.join(' ')}: exit ${code} ${signal ?? ''}`));
    });
  });
}

// ---- statistics -------------------------------------------------------------------------------

/** Median (mean of the two middle values for even n) and nearest-rank p90, min, max, mean. */
function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const n = s.length;
  const median = n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  const p90 = s[Math.min(n - 1, Math.ceil(0.9 * n) - 1)];
  const mean = s.reduce((a, b) => a + b, 0) / n;
  const r = (x) => Math.round(x * 10) / 10;
  return { n, median: r(median), p90: r(p90), min: r(s[0]), max: r(s[n - 1]), mean: r(mean),
    samples: samples.map(r) };
}

// ---- main -------------------------------------------------------------------------------------

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const deadline = setTimeout(() => {
    console.error(`bench: deadline of ${o.deadlineS} s reached, stopping`);
    stopAll(3);
  }, o.deadlineS * 1000);

  const launcherJar = join(repoDir, 'bundles', 'target', 'pi.host.launcher.jar');
  if (!existsSync(launcherJar) || !existsSync(join(repoDir, 'bundles', 'target', 'pi-host', 'bundles.list'))) {
    fail(`no launcher at ${launcherJar}: build first (mvn -B -q -DskipTests package), or use bench/startup.sh`);
  }
  const peerPkgDir = join(benchDir, 'node_modules', '@modelcontextprotocol', 'server-filesystem');
  if (!existsSync(join(peerPkgDir, 'package.json'))) {
    fail('the MCP filesystem server is not installed: npm ci --prefix bench (or use bench/startup.sh)');
  }
  const peerPkg = JSON.parse(readFileSync(join(peerPkgDir, 'package.json'), 'utf8'));
  const peerMain = join(peerPkgDir, peerPkg.bin['mcp-server-filesystem']);

  const scratch = mkdtempSync(join(tmpdir(), 'pi-host-bench-'));
  process.on('exit', () => { try { rmSync(scratch, { recursive: true, force: true }); } catch { /* best effort */ } });
  const dataDir = join(scratch, 'data');   // pi-host's data dir: one, warmed once, reused
  const allowedRoot = join(scratch, 'root'); // the MCP server's allowed directory
  mkdirSync(allowedRoot, { recursive: true });

  const jsa = join(scratch, 'pi-host.jsa'); // the AppCDS archive of --appcds (a variant of the plain launcher)
  // pi-host as bin/pi-host starts it (its java, options and start-up archive; bin/jvm.sh), spawned without
  // bash; --java picks one java, else every JVM bin/pi-host could pick is measured (the newest, and the one
  // on PATH when that is another release)
  const javaEnv = o.javaOpts.length ? { PI_HOST_JAVA_OPTS: o.javaOpts.join(' ') } : {};
  const choices = o.javaGiven ? [{ label: `java (${o.java})`, env: { PI_HOST_JAVA: o.java } }] : jvmChoices();
  const binSpawn = (choice, data = dataDir, env = {}) => {
    const c = piHostCommand(['serve', '--stdio', '--data-dir', data], { ...choice.env, ...javaEnv, ...env });
    return { cmd: c.cmd, args: c.args, choice: c.choice };
  };
  const piHostSpawn = (jvmOpts, jar = launcherJar, data = dataDir) => (o.viaBin && jar === launcherJar
    ? { cmd: join(repoDir, 'bin', 'pi-host'), args: ['serve', '--stdio', '--data-dir', data],
        env: { ...process.env, PI_HOST_JAVA_OPTS: jvmOpts.join(' ') } }
    : jar === launcherJar && !jvmOpts.some((x) => x.includes('SharedArchiveFile') || x.includes('ArchiveClassesAtExit'))
      ? binSpawn(choices[0], data, jvmOpts.length ? { PI_HOST_JAVA_OPTS: jvmOpts.join(' ') } : {})
      : { cmd: o.java, args: [...launcherJvmOptions(jar), ...jvmOpts, '-jar', jar, 'serve', '--stdio', '--data-dir', data] });
  const cmdline = (spawned) => (spawned.env?.PI_HOST_JAVA_OPTS ? `PI_HOST_JAVA_OPTS='${spawned.env.PI_HOST_JAVA_OPTS}' ` : '')
    + [spawned.cmd, ...spawned.args].join(' ');
  const piHostRunner = (spawned, method = 'host.info') => () => timeFirstResponse({
    ...spawned, id: 1, timeoutMs: o.timeoutS * 1000,
    request: { jsonrpc: '2.0', id: 1, method },
  });

  const piHost = o.viaBin ? piHostSpawn(o.javaOpts) : binSpawn(choices[0]);
  const runPiHost = piHostRunner(piHost);
  const peerSpawn = { cmd: process.execPath, args: [peerMain, allowedRoot] };
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: {
    protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pi-host-bench', version: '0' } } };
  const runPeer = () => timeFirstResponse({
    ...peerSpawn, id: 1, timeoutMs: o.timeoutS * 1000, request: initialize,
    after: { jsonrpc: '2.0', method: 'notifications/initialized' },
  });

  // what is measured, in the rotation: pi-host (each JVM) and the peer always, then the optional extras
  const subjects = [
    { key: 'piHost', label: `pi-host  spawn -> host.info [${choices[0].label}]`, jvm: piHost.choice,
      command: cmdline(piHost), run: runPiHost },
    { key: 'peer', label: 'peer     spawn -> initialize', command: cmdline(peerSpawn), run: runPeer },
  ];
  for (const c of o.viaBin ? [] : choices.slice(1)) {
    const spawned = binSpawn(c);
    subjects.push({ key: `jvm:${c.label}`, jvmLabel: c.label, jvm: spawned.choice,
      label: `pi-host  spawn -> host.info [${c.label}]`, command: cmdline(spawned), run: piHostRunner(spawned) });
  }
  if (o.firstCall) {
    // what a user waits for: spawn until the answer of a first small Read, on either side (pi-host: a session
    // on the root, then tools.execute; peer: initialize, initialized, then tools/call)
    const small = join(allowedRoot, 'small.txt');
    writeFileSync(small, Array.from({ length: 10 }, (_, i) => `line ${i + 1}: the quick brown fox`).join('\n') + '\n');
    const readOf = (spawned) => () => timeFirstResponse({
      ...spawned, id: 1, timeoutMs: o.timeoutS * 1000,
      request: { jsonrpc: '2.0', id: 1, method: 'session.create', params: { projectRoot: realpathSync(allowedRoot) } },
      then: (created) => ({ id: 2, request: { jsonrpc: '2.0', id: 2, method: 'tools.execute', params: {
        sessionId: created.result.sessionId, turnId: 't1', toolCallId: 'c1', name: 'Read', arguments: { path: 'small.txt' } } } }),
    }).then((r) => {
      if (r.response.result?.ok !== true) fail(`pi-host's first Read failed: ${JSON.stringify(r.response).slice(0, 400)}`);
      return r;
    });
    subjects.push({ key: 'firstRead', label: `pi-host  spawn -> first Read [${choices[0].label}]`, command: cmdline(piHost),
      run: readOf(piHost) });
    subjects.push({ key: 'peerFirstRead', label: 'peer     spawn -> first read_text_file', command: cmdline(peerSpawn),
      run: () => timeFirstResponse({ ...peerSpawn, id: 1, timeoutMs: o.timeoutS * 1000, request: initialize,
        then: () => ({ id: 2, request: [{ jsonrpc: '2.0', method: 'notifications/initialized' },
          { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_text_file', arguments: { path: realpathSync(small) } } }] }),
      }).then((r) => {
        if (r.response.result?.isError) fail(`the peer's first read failed: ${JSON.stringify(r.response).slice(0, 400)}`);
        return r;
      }) });
  }
  if (o.appcds) {
    o.variants.unshift({ label: 'appcds', opts: ['-XX:SharedArchiveFile=@JSA@'] });
  }
  for (const v of o.variants) {
    if (v.opts.some((x) => x.includes('@JSA@')) && !o.appcds) fail(`variant ${v.label} uses @JSA@: add --appcds`);
    if (v.launcher && !existsSync(v.launcher)) fail(`launcher variant ${v.label}: no ${v.launcher}`);
    // another build keeps its own bundle cache (it is created by the first, unmeasured, warm-up start)
    const spawned = piHostSpawn([...o.javaOpts, ...v.opts.map((x) => x.replaceAll('@JSA@', jsa))],
      v.launcher ?? launcherJar, v.launcher ? join(scratch, `data-${v.label}`) : dataDir);
    subjects.push({ key: `variant:${v.label}`, variant: v.label, label: `pi-host [${v.label}]`,
      command: cmdline(spawned), run: piHostRunner(spawned) });
  }
  let dropInJars = [];
  if (o.dropIns) {
    // a second data dir whose drop-in folder holds the jars: the first plugins.list lists every one
    dropInJars = readdirSync(o.dropIns).filter((f) => f.endsWith('.jar'));
    if (!dropInJars.length) fail(`--drop-ins: no *.jar in ${o.dropIns}`);
    const plugins = join(scratch, 'data-drop-ins', 'plugins');
    mkdirSync(plugins, { recursive: true });
    for (const f of dropInJars) copyFileSync(join(o.dropIns, f), join(plugins, f));
    const spawned = piHostSpawn(o.javaOpts, launcherJar, join(scratch, 'data-drop-ins'));
    const run = piHostRunner(spawned, 'plugins.list');
    subjects.push({ key: 'dropIns', label: `pi-host + ${dropInJars.length} drop-ins -> plugins.list`,
      command: cmdline(spawned), run: async () => {
        const r = await run();
        const listed = r.response.result?.plugins?.length;
        if (listed !== dropInJars.length) fail(`the first plugins.list listed ${listed} of ${dropInJars.length} drop-ins`);
        return r;
      } });
  }
  if (o.baselines) {
    const jv = [...o.javaOpts, '-version'];
    subjects.push({ key: 'javaVersion', label: 'java -version  spawn -> exit', command: [o.java, ...jv].join(' '),
      run: () => timeToExit(o.java, jv, o.timeoutS * 1000) });
    subjects.push({ key: 'nodeEmpty', label: 'node -e 0      spawn -> exit', command: `${process.execPath} -e 0`,
      run: () => timeToExit(process.execPath, ['-e', '0'], o.timeoutS * 1000) });
  }
  for (const s of subjects) console.error(`bench: ${s.label.replace(/\s+/g, ' ')}: ${s.command}`);

  // warm the bundle cache once (the first start installs the bundles into felix-cache); not counted
  const first = await runPiHost();
  console.error(`bench: bundle cache created in ${first.ms.toFixed(0)} ms (cold start, not counted)`);
  const piHostVersion = first.response.result?.hostVersion;
  if (o.appcds) {
    // a dynamic AppCDS archive, dumped at the exit of one warm start (JDK 13+)
    await timeFirstResponse({ ...piHostSpawn([...o.javaOpts, `-XX:ArchiveClassesAtExit=${jsa}`]), id: 1,
      timeoutMs: o.timeoutS * 1000, request: { jsonrpc: '2.0', id: 1, method: 'host.info' } });
    if (!existsSync(jsa)) fail(`the JVM wrote no AppCDS archive at ${jsa}`);
    console.error(`bench: AppCDS archive written: ${jsa}`);
  }
  // warm-up: every subject, not measured (page cache, the JVM's and node's own files)
  let peerInfo = null;
  for (let i = 0; i < Math.max(1, o.warmup); i++) {
    for (const s of subjects) {
      const r = await s.run();
      if (s.key === 'peer') peerInfo = r.response.result;
    }
  }

  // measured: in turn, and the order rotates every repetition (for two: A B, B A, A B, ...) so that
  // no subject always runs right after the same other one
  const samples = new Map(subjects.map((s) => [s.key, []]));
  const cpu = new Map(subjects.map((s) => [s.key, []]));
  for (let i = 0; i < o.runs; i++) {
    const order = subjects.map((_, j) => subjects[(i + j) % subjects.length]);
    for (const s of order) {
      const r = await s.run();
      samples.get(s.key).push(r.ms);
      if (r.cpuMs != null) cpu.get(s.key).push(r.cpuMs);
    }
    process.stderr.write(`bench: ${i + 1}/${o.runs}  `
      + subjects.map((s) => `${s.variant ?? s.key} ${samples.get(s.key)[i].toFixed(0)}`).join('  ') + ' ms\n');
  }

  const st = new Map(subjects.map((s) => [s.key, stats(samples.get(s.key))]));
  // CPU time used by the child up to its first response (all its threads), where /proc has it
  const cpuStats = (key) => (cpu.get(key).length === o.runs ? stats(cpu.get(key)) : null);
  const sa = st.get('piHost');
  const sb = st.get('peer');
  const ratioOf = (x) => Math.round((x.median / sb.median) * 100) / 100;
  const ratio = ratioOf(sa);
  const result = {
    date: new Date().toISOString(),
    machine: { nproc: availableParallelism(), platform: `${process.platform} ${process.arch}`, node: process.version },
    runs: o.runs, warmup: o.warmup,
    piHost: { what: 'spawn -> first host.info response line (warm bundle cache)',
      spawned: o.viaBin ? 'bin/pi-host (bash wrapper, staleness check included)' : 'java directly (no bash wrapper)',
      command: cmdline(piHost), hostVersion: piHostVersion, ...sa, cpuToResponse: cpuStats('piHost') },
    peer: { what: 'spawn -> initialize response line (then notifications/initialized is sent)',
      package: `${peerPkg.name}@${peerPkg.version}`, server: peerInfo?.serverInfo,
      protocolVersion: peerInfo?.protocolVersion, command: cmdline(peerSpawn), ...sb, cpuToResponse: cpuStats('peer') },
    ratio,
  };
  // the goal (issue 19): spawn -> first answer <= 1.0x the peer's initialize, on every JVM bin/pi-host picks
  const GOAL = 1.0;
  const jvmSubjects = subjects.filter((s) => s.key === 'piHost' || s.jvmLabel);
  result.goal = `spawn -> first answer <= ${GOAL.toFixed(1)}x the peer's initialize`;
  result.jvms = jvmSubjects.map((s) => ({ label: s.jvmLabel ?? choices[0].label, jvm: s.jvm, ...st.get(s.key),
    ratio: ratioOf(st.get(s.key)), met: ratioOf(st.get(s.key)) <= GOAL, cpuToResponse: cpuStats(s.key) }));
  if (o.firstCall) {
    const a = st.get('firstRead');
    const b = st.get('peerFirstRead');
    result.firstRead = { what: 'spawn -> the answer of a first small Read (pi-host: session.create, tools.execute; peer: '
      + 'initialize, initialized, tools/call read_text_file)', piHost: { ...a, cpuToResponse: cpuStats('firstRead') },
      peer: { ...b, cpuToResponse: cpuStats('peerFirstRead') }, ratio: Math.round((a.median / b.median) * 100) / 100 };
  }
  const variants = subjects.filter((s) => s.variant);
  if (variants.length) {
    result.variants = variants.map((s) => ({ label: s.variant, command: s.command, ratio: ratioOf(st.get(s.key)),
      piHostOverVariant: Math.round((sa.median / st.get(s.key).median) * 100) / 100,
      ...st.get(s.key), cpuToResponse: cpuStats(s.key) }));
  }
  if (o.dropIns) {
    result.dropIns = { what: 'spawn -> first plugins.list response line, the drop-in folder holding the jars',
      jars: dropInJars, command: subjects.find((s) => s.key === 'dropIns').command, ...st.get('dropIns'),
      ratioToHostInfo: Math.round((st.get('dropIns').median / sa.median) * 100) / 100, ratio: ratioOf(st.get('dropIns')),
      cpuToResponse: cpuStats('dropIns') };
  }
  if (o.baselines) {
    result.baselines = {};
    for (const k of ['javaVersion', 'nodeEmpty']) {
      result.baselines[k] = { command: subjects.find((s) => s.key === k).command, ...st.get(k) };
    }
  }

  const line = (label, s) => `${label.padEnd(44)} median ${s.median.toFixed(1).padStart(7)} ms   p90 ${s.p90.toFixed(1).padStart(7)} ms   (min ${s.min.toFixed(1)}, max ${s.max.toFixed(1)}, n=${s.n})`;
  const out = [
    `Startup, ${o.runs} alternating repetitions after ${o.warmup} warm-up (${result.date})`,
    `pi-host spawned as: ${result.piHost.spawned}`,
    line(subjects[0].label, sa),
    line(subjects[1].label, sb),
  ];
  for (const s of jvmSubjects.slice(1)) out.push(line(s.label, st.get(s.key)));
  if (o.firstCall) {
    out.push(line(subjects.find((x) => x.key === 'firstRead').label, st.get('firstRead')));
    out.push(line(subjects.find((x) => x.key === 'peerFirstRead').label, st.get('peerFirstRead')));
  }
  out.push(`load average at the end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  for (const j of result.jvms) {
    out.push(`goal ${result.goal} [${j.label}]: ratio ${j.ratio.toFixed(2)}  ${j.met ? 'MET' : 'MISSED'}   (${j.jvm ?? 'as given'})`);
  }
  if (o.firstCall) {
    out.push(`spawn -> first Read answer, pi-host/peer (not a goal of its own; what the first tool call waits): `
      + `${result.firstRead.ratio.toFixed(2)}`);
  }
  for (const s of variants) {
    out.push(`${line(s.label, st.get(s.key))}   ratio ${ratioOf(st.get(s.key)).toFixed(2)}`
      + `   pi-host/${s.variant} ${(sa.median / st.get(s.key).median).toFixed(2)}`);
  }
  const withCpu = subjects.filter((s) => cpuStats(s.key));
  if (withCpu.length) {
    out.push('CPU time (user+sys, all threads) used up to the first response, medians:');
    out.push('  ' + withCpu.map((s) => `${s.variant ?? (s.key === 'piHost' ? 'pi-host' : s.key)} ${cpuStats(s.key).median.toFixed(0)} ms`).join(', '));
  }
  if (o.dropIns) {
    out.push(`${line(subjects.find((s) => s.key === 'dropIns').label, st.get('dropIns'))}   ratio to host.info `
      + `${result.dropIns.ratioToHostInfo.toFixed(2)}, to the peer ${result.dropIns.ratio.toFixed(2)}`);
  }
  if (o.baselines) {
    for (const k of ['javaVersion', 'nodeEmpty']) out.push(line(subjects.find((s) => s.key === k).label, st.get(k)));
  }
  console.log(out.join('\n'));
  if (variants.length) {
    console.log('variants (JVM options added for pi-host, or another launcher):');
    for (const s of variants) console.log(`  ${s.variant}: ${s.command}`);
  }
  if (o.json) console.log(JSON.stringify(result));

  clearTimeout(deadline);
  killAll();
}

main().catch((e) => {
  if (!stopping) console.error(`bench: ${e.stack || e}`);
  stopAll(1);
});
