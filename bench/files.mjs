#!/usr/bin/env node
// File tools benchmark (a benchmark, not a timed test; issue 4, "benchmark harness"): in one run, on
// a real source tree of 10k+ files (the JDK sources, extracted once into bench/.cache/), each pair
// below is measured with a few repetitions, the two sides alternating and the order flipping:
//   1. Grep {pattern: "ConcurrentHashMap", outputMode: "files"} through pi-host (engine rg) vs raw
//      `rg -l ConcurrentHashMap TREE`; the same Grep on a second pi-host that cannot find rg
//      (engine java: PATH and login-shell PATH without rg) vs the same raw rg;
//   2. Glob {pattern: "**/*.java"} (both engines) vs `rg --files -g '*.java' TREE`;
//   3. Read {path: 100 MB file, limit: 10} (the tag covers the whole file) vs `sha256sum FILE`;
//   4. one Edit with 100 `PUT n.=n:` ops on a 200,000-line file vs Node fs read + modify + write.
// pi-host times: from writing the tools.execute request line until its response line is read.
// Reference times: from spawn() until the child's exit (Node fs: the calls themselves).
// Every child is killed at exit (normal, error, signal or deadline); the run has a deadline.

import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readFileSync,
  realpathSync, renameSync, rmSync, writeFileSync, writeSync,
} from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launcherJvmOptions } from './jvm-options.mjs';
import { prepareTree as prepareJdkTree } from './jdk-tree.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const repoDir = resolve(benchDir, '..');

const USAGE = `usage: bench/files.sh [options]
  -n, --reps N        measured repetitions per subject (default 5), after 1 warm-up
  --only LIST         comma list of: grep,glob,read,edit (default all)
  --no-java-engine    skip the second pi-host without rg (in-process Grep/Glob)
  --cache DIR         where the JDK sources are extracted once (default bench/.cache)
  --src-zip FILE      the JDK src.zip (default: $JAVA_HOME/lib/src.zip, else /usr/lib/jvm/*/lib/src.zip)
  --java CMD          java for pi-host (default $JAVA_HOME/bin/java, else java)
  --launcher JAR      default bundles/target/pi.host.launcher.jar
  --timeout S         per call (default 120)
  --deadline S        whole run (default 300)
  --json              also print one JSON object as the last line`;

function parseArgs(argv) {
  const o = {
    reps: 5, only: new Set(['grep', 'glob', 'read', 'edit']), javaEngine: true,
    cache: join(benchDir, '.cache'), srcZip: null,
    java: process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java',
    launcher: join(repoDir, 'bundles', 'target', 'pi.host.launcher.jar'),
    timeoutS: 120, deadlineS: 300, json: false,
  };
  const need = (i) => { if (i + 1 >= argv.length) fail(`${argv[i]} needs a value`); return argv[i + 1]; };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    switch (a) {
      case '-n': case '--reps': o.reps = Math.max(1, Math.floor(Number(need(i)))); i++; break;
      case '--only': o.only = new Set(need(i).split(',').map((s) => s.trim())); i++; break;
      case '--no-java-engine': o.javaEngine = false; break;
      case '--cache': o.cache = resolve(need(i)); i++; break;
      case '--src-zip': o.srcZip = resolve(need(i)); i++; break;
      case '--java': o.java = need(i); i++; break;
      case '--launcher': o.launcher = resolve(need(i)); i++; break;
      case '--timeout': o.timeoutS = Number(need(i)); i++; break;
      case '--deadline': o.deadlineS = Number(need(i)); i++; break;
      case '--json': o.json = true; break;
      case '-h': case '--help': console.log(USAGE); process.exit(0); break;
      default: fail(`unknown option: ${a}\n${USAGE}`);
    }
  }
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
  for (const child of live) { try { child.kill('SIGKILL'); } catch { /* gone */ } }
  live.clear();
}
let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  const waits = [...live].map((c) => new Promise((r) => {
    if (c.exitCode !== null || c.signalCode !== null) r(); else c.once('exit', r);
  }));
  killAll();
  Promise.race([Promise.all(waits), new Promise((r) => setTimeout(r, 2000))]).then(() => process.exit(code));
}
process.on('exit', killAll);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => { console.error(`bench: ${sig}, stopping`); stopAll(130); });
}

const ns = () => process.hrtime.bigint();
const ms = (n) => Number(n) / 1e6;

// ---- a line-based JSON-RPC client over a child's stdio (as bench/rpc.mjs) ---------------------

function startServer(name, cmd, args, env, timeoutMs) {
  const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], env });
  live.add(child);
  let stderrTail = '';
  let buf = '';
  let nextId = 1;
  const pending = new Map();
  let exited = null;
  child.stdin.on('error', () => {});
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (c) => { stderrTail = (stderrTail + c).slice(-4000); });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buf += chunk;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (!line.trim()) continue;
      let msg;
      try { msg = JSON.parse(line); } catch { continue; }
      const p = msg && msg.id != null ? pending.get(msg.id) : undefined;
      if (!p || !('result' in msg || 'error' in msg)) continue;
      const t1 = ns();
      pending.delete(msg.id);
      clearTimeout(p.timer);
      p.resolve({ response: msg, ns: t1 - p.t0 });
    }
  });
  child.on('error', (e) => { exited = e; for (const p of pending.values()) p.reject(e); pending.clear(); });
  child.on('exit', (code, signal) => {
    live.delete(child);
    exited = new Error(`${name} exited (code ${code}, signal ${signal})\n${stderrTail}`);
    for (const p of pending.values()) { clearTimeout(p.timer); p.reject(exited); }
    pending.clear();
  });
  const call = (method, params) => new Promise((res, rej) => {
    if (exited) { rej(exited); return; }
    const id = nextId++;
    const timer = setTimeout(() => {
      pending.delete(id);
      rej(new Error(`${name}: no response to ${method} within ${timeoutMs} ms\n${stderrTail}`));
    }, timeoutMs);
    const line = JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }) + '\n';
    pending.set(id, { resolve: res, reject: rej, timer, t0: ns() });
    child.stdin.write(line);
  });
  const stop = () => new Promise((r) => {
    if (child.exitCode !== null || child.signalCode !== null) { r(); return; }
    const t1 = setTimeout(() => child.kill('SIGTERM'), 5000);
    const t2 = setTimeout(() => child.kill('SIGKILL'), 10000);
    child.once('exit', () => { clearTimeout(t1); clearTimeout(t2); r(); });
    child.stdin.end();
  });
  return { name, child, call, stop };
}

/**
 * User + system CPU of a process, in ms, from /proc/PID/stat (Linux; 10 ms ticks): its own threads
 * and its reaped children (rg started by pi-host), or only the reaped children (the harness's
 * reference commands). NaN elsewhere.
 */
function cpuMs(pid, childrenOnly) {
  try {
    const st = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = st.slice(st.lastIndexOf(')') + 2).split(' '); // f[11] utime, f[12] stime, f[13] cutime, f[14] cstime
    return 10 * ((childrenOnly ? 0 : Number(f[11]) + Number(f[12])) + Number(f[13]) + Number(f[14]));
  } catch { return NaN; }
}
const hostCpu = (h) => () => cpuMs(h.child.pid, false);
const refCpu = () => cpuMs(process.pid, true);

/** Runs a reference command to its exit; resolves {ns, stdout}. Killed at the timeout. */
function runRef(cmd, args, opts, timeoutMs) {
  return new Promise((res, rej) => {
    const t0 = ns();
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    live.add(child);
    const out = [];
    let err = '';
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => { err = (err + c).slice(-2000); });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); live.delete(child); rej(e); });
    child.on('close', (code) => {
      const t1 = ns();
      clearTimeout(timer);
      live.delete(child);
      if (code !== 0) rej(new Error(`${cmd} ${args.join(' ')}: exit ${code}\n${err}`));
      else res({ ns: t1 - t0, stdout: Buffer.concat(out).toString('utf8') });
    });
  });
}

// ---- statistics -------------------------------------------------------------------------------

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
const r1 = (x) => Math.round(x * 10) / 10;
const r2 = (x) => Math.round(x * 100) / 100;

// ---- setup ------------------------------------------------------------------------------------

function prepareTree(o) {
  try {
    return prepareJdkTree(o.cache, o.srcZip);
  } catch (e) {
    return fail(e.message);
  }
}

/** A text file of about `bytes` bytes, lines of ~100 characters. */
function writeBigText(path, bytes) {
  const fd = openSync(path, 'w');
  const chunk = [];
  let size = 0; let n = 0; let pending = 0;
  while (size < bytes) {
    n++;
    const line = `${String(n).padStart(9, '0')} the quick brown fox jumps over the lazy dog; ${(n * 2654435761 % 4294967296).toString(16).padStart(8, '0')} lorem ipsum\n`;
    chunk.push(line); size += line.length; pending += line.length;
    if (pending > 4 << 20) { writeSync(fd, chunk.join('')); chunk.length = 0; pending = 0; }
  }
  writeSync(fd, chunk.join(''));
  closeSync(fd);
  return { bytes: size, lines: n };
}

function writeLines(path, lines) {
  const parts = [];
  for (let i = 1; i <= lines; i++) parts.push(`line ${i}: some text of an ordinary source line, int x${i} = ${i * 7};\n`);
  writeFileSync(path, parts.join(''));
}

// ---- main -------------------------------------------------------------------------------------

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const deadline = setTimeout(() => { console.error(`bench: deadline of ${o.deadlineS} s reached, stopping`); stopAll(3); },
    o.deadlineS * 1000);
  const timeoutMs = o.timeoutS * 1000;
  if (!existsSync(o.launcher) || !existsSync(join(dirname(o.launcher), 'pi-host', 'bundles.list'))) {
    fail(`no launcher at ${o.launcher}: build first (mvn -B -q -DskipTests package), or use bench/files.sh`);
  }
  let rgPath;
  try { rgPath = execFileSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).trim(); } catch { rgPath = ''; }
  if (!rgPath) fail('rg is not on PATH (apt-get install ripgrep): it is the reference');
  const rgVersion = execFileSync(rgPath, ['--version'], { encoding: 'utf8' }).split('\n')[0];

  if (!o.java.includes('/')) { // the host without rg gets a PATH without java too: spawn it by path
    try { o.java = execFileSync('sh', ['-c', `command -v ${o.java}`], { encoding: 'utf8' }).trim(); } catch { fail(`${o.java} is not on PATH`); }
  }
  const { zip, tree, files } = prepareTree(o);
  console.error(`bench: tree ${tree}: ${files} files`);

  const scratch = mkdtempSync(join(tmpdir(), 'pi-host-files-bench-'));
  process.on('exit', () => { try { rmSync(scratch, { recursive: true, force: true }); } catch { /* best effort */ } });
  const proj = join(scratch, 'project');
  mkdirSync(proj);
  const projReal = realpathSync(proj);

  // pi-host with rg (the environment as it is), and one that cannot find rg: PATH without it, a
  // "login shell" ($SHELL) that answers a PATH without it, a HOME without profiles.
  const piArgs = (data) => [...launcherJvmOptions(o.launcher), '-jar', o.launcher, 'serve', '--stdio', '--data-dir', data];
  const hosts = [];
  const piRg = startServer('pi-host(rg)', o.java, piArgs(join(scratch, 'data-rg')), process.env, timeoutMs);
  hosts.push(piRg);
  let piJava = null;
  if (o.javaEngine && (o.only.has('grep') || o.only.has('glob'))) {
    const noRgBin = join(scratch, 'no-rg-bin');
    mkdirSync(noRgBin);
    const fakeShell = join(scratch, 'login-shell-without-rg');
    writeFileSync(fakeShell, `#!/bin/sh\nprintf %s "${noRgBin}"\n`);
    chmodSync(fakeShell, 0o755);
    const home = join(scratch, 'home');
    mkdirSync(home);
    const env = { ...process.env, PATH: noRgBin, SHELL: fakeShell, HOME: home };
    piJava = startServer('pi-host(java)', o.java, piArgs(join(scratch, 'data-java')), env, timeoutMs);
    hosts.push(piJava);
  }
  const info = (await piRg.call('host.info')).response;
  if (info.error) throw new Error(`host.info: ${JSON.stringify(info.error)}`);
  const session = async (h, root) => {
    const r = (await h.call('session.create', { projectRoot: root, permissionMode: 'auto' })).response;
    if (r.error) throw new Error(`${h.name} session.create: ${JSON.stringify(r.error)}`);
    return r.result.sessionId;
  };
  const sTreeRg = await session(piRg, tree);
  const sProj = await session(piRg, projReal);
  const sTreeJava = piJava ? await session(piJava, tree) : null;

  let callNo = 0;
  const exec = async (h, sessionId, name, args, turnId = 't1') => {
    callNo++;
    const r = await h.call('tools.execute', { sessionId, turnId, toolCallId: `c${callNo}`, name, arguments: args });
    if (r.response.error) throw new Error(`${h.name} ${name}: ${JSON.stringify(r.response.error)}`);
    return { res: r.response.result, ms: ms(r.ns) };
  };
  const must = (cond, what, res) => { if (!cond) throw new Error(`${what}: ${JSON.stringify(res).slice(0, 800)}`); };

  const results = [];
  /** Runs the subjects 1 warm-up + o.reps times, alternating, the order rotating each repetition. */
  const measure = async (title, subjects) => {
    const t = subjects.map(() => []);
    const c = subjects.map(() => []); // CPU per call where the subject says how to read it (steadier under load)
    for (let rep = 0; rep <= o.reps; rep++) {
      for (let j = 0; j < subjects.length; j++) {
        const k = (rep + j) % subjects.length;
        const c0 = subjects[k].cpu ? subjects[k].cpu() : NaN;
        const v = await subjects[k].once(rep);
        const c1 = subjects[k].cpu ? subjects[k].cpu() : NaN;
        if (rep > 0) { t[k].push(v); c[k].push(c1 - c0); }
      }
    }
    const meds = t.map(median);
    process.stderr.write(`bench: ${title} done\n`);
    return subjects.map((s, k) => ({ label: s.label, medianMs: r1(meds[k]), samplesMs: t[k].map(r1),
      ...(s.cpu && c[k].every(Number.isFinite) ? { cpuMedianMs: median(c[k]), cpuSamplesMs: c[k] } : {}), ...(s.extra || {}) }));
  };

  // 1. Grep
  if (o.only.has('grep')) {
    let rgFiles = 0; const info1 = {};
    const grepOnce = (h, s, eng) => async () => {
      const { res, ms: m } = await exec(h, s, 'Grep', { pattern: 'ConcurrentHashMap', outputMode: 'files' });
      must(res.ok === true && res.details?.engine === eng, `Grep (${eng})`, res);
      info1[eng] = { files: res.details.files, matches: res.details.matches, truncated: res.truncated };
      return m;
    };
    const subjects = [
      { label: 'pi-host Grep files (engine rg)', once: grepOnce(piRg, sTreeRg, 'rg'), cpu: hostCpu(piRg) },
      { label: 'rg -l ConcurrentHashMap TREE', cpu: refCpu, once: async () => {
        const r = await runRef(rgPath, ['-l', 'ConcurrentHashMap', tree], {}, timeoutMs);
        rgFiles = r.stdout.split('\n').filter(Boolean).length; return ms(r.ns);
      } },
      { label: 'rg as pi-host runs it (attribution)', cpu: refCpu, once: async () => ms((await runRef(rgPath, [
        '--no-config', '--no-require-git', '--no-ignore-global', '--no-ignore-exclude', '--color', 'never',
        '--null', '--files-with-matches', '--case-sensitive', '--regexp', 'ConcurrentHashMap',
      ], { cwd: tree }, timeoutMs)).ns) },
    ];
    if (piJava) subjects.push({ label: 'pi-host Grep files (engine java)', once: grepOnce(piJava, sTreeJava, 'java'), cpu: hostCpu(piJava) });
    const m = await measure('grep', subjects);
    const pair = { name: 'Grep', subjects: m, rgFiles, piHost: info1 };
    pair.ratios = [{ what: 'pi-host(rg) / raw rg', value: r2(m[0].medianMs / m[1].medianMs), goal: '< 1.10', met: m[0].medianMs / m[1].medianMs < 1.10 }];
    if (piJava) pair.ratios.push({ what: 'pi-host(java) / raw rg', value: r2(m[3].medianMs / m[1].medianMs), goal: '<= 2', met: m[3].medianMs / m[1].medianMs <= 2 });
    results.push(pair);
  }

  // 2. Glob
  if (o.only.has('glob')) {
    let rgCount = 0; const info2 = {};
    const globOnce = (h, s, eng) => async () => {
      const { res, ms: m } = await exec(h, s, 'Glob', { pattern: '**/*.java' });
      must(res.ok === true && res.details?.engine === eng, `Glob (${eng})`, res);
      info2[eng] = { count: res.details.count, truncated: res.truncated };
      return m;
    };
    const subjects = [
      { label: 'pi-host Glob **/*.java (engine rg)', once: globOnce(piRg, sTreeRg, 'rg'), cpu: hostCpu(piRg) },
      { label: "rg --files -g '*.java' TREE", cpu: refCpu, once: async () => {
        const r = await runRef(rgPath, ['--files', '-g', '*.java', tree], {}, timeoutMs);
        rgCount = r.stdout.split('\n').filter(Boolean).length; return ms(r.ns);
      } },
    ];
    if (piJava) subjects.push({ label: 'pi-host Glob **/*.java (engine java)', once: globOnce(piJava, sTreeJava, 'java'), cpu: hostCpu(piJava) });
    const m = await measure('glob', subjects);
    const pair = { name: 'Glob', subjects: m, rgFiles: rgCount, piHost: info2 };
    pair.ratios = [{ what: 'pi-host(rg) / rg --files', value: r2(m[0].medianMs / m[1].medianMs), goal: '<= 1.5', met: m[0].medianMs / m[1].medianMs <= 1.5 }];
    if (piJava) pair.ratios.push({ what: 'pi-host(java) / rg --files', value: r2(m[2].medianMs / m[1].medianMs), goal: '<= 1.5 (not a goal for java)', met: null });
    results.push(pair);
  }

  // 3. Read of a 100 MB file, limit 10
  if (o.only.has('read')) {
    const big = join(projReal, 'big.txt');
    const g = writeBigText(big, 100 * 1000 * 1000);
    let tag = null;
    const subjects = [
      { label: 'pi-host Read limit 10 (100 MB)', once: async () => {
        const { res, ms: m } = await exec(piRg, sProj, 'Read', { path: 'big.txt', limit: 10 });
        must(res.ok === true && res.details?.totalLines === g.lines && res.details?.lines === 10, 'Read', res);
        tag = res.details.tag; return m;
      } },
      { label: 'sha256sum FILE', once: async () => ms((await runRef('sha256sum', [big], {}, timeoutMs)).ns) },
    ];
    const m = await measure('read', subjects);
    rmSync(big, { force: true });
    results.push({ name: 'Read', file: { bytes: g.bytes, lines: g.lines }, tag, subjects: m,
      ratios: [{ what: 'pi-host Read / sha256sum', value: r2(m[0].medianMs / m[1].medianMs), goal: '<= 1.5', met: m[0].medianMs / m[1].medianMs <= 1.5 }] });
  }

  // 4. 100 Edit ops in one Edit call on a 200,000-line file
  if (o.only.has('edit')) {
    const LINES = 200000; const OPS = 100;
    writeLines(join(projReal, 'edit.txt'), LINES);
    writeLines(join(projReal, 'node.txt'), LINES);
    // repetition r edits lines 2000k - 1000 + r (k = 1..100): spread over the file, new ones each time
    const lineNos = (rep) => Array.from({ length: OPS }, (_, k) => 2000 * (k + 1) - 1000 + rep);
    const opsFor = (rep) => lineNos(rep).map((n) => `PUT ${n}.=${n}:\n+line ${n}: edited in repetition ${rep}`).join('\n');
    const revealMs = []; const readMs = [];
    let reveals = 0; let lastTag = null;
    const subjects = [
      { label: 'pi-host Edit, 100 ops (the applying call)', once: async (rep) => {
        const turnId = `edit-${rep}`;
        const rd = await exec(piRg, sProj, 'Read', { path: 'edit.txt', limit: 1 }, turnId);
        must(rd.res.ok === true && rd.res.details?.totalLines === LINES, 'Read edit.txt', rd.res);
        if (rep > 0) readMs.push(rd.ms);
        const args = { path: 'edit.txt', tag: rd.res.details.tag, ops: opsFor(rep) };
        let e = await exec(piRg, sProj, 'Edit', args, turnId);
        if (e.res.errorCode === 'EDIT_LINES_UNSEEN') {
          must(e.res.details?.revealComplete === true, 'Edit reveal', e.res);
          reveals++;
          if (rep > 0) revealMs.push(e.ms);
          e = await exec(piRg, sProj, 'Edit', args, turnId); // the free retry, unchanged
        }
        must(e.res.ok === true && e.res.details?.lines === LINES, 'Edit', e.res);
        lastTag = e.res.details.tag;
        return e.ms;
      } },
      { label: 'Node fs: read, replace 100 lines, write', once: async (rep) => {
        const p = join(projReal, 'node.txt');
        const t0 = ns();
        const lines = readFileSync(p, 'utf8').split('\n');
        for (const n of lineNos(rep)) lines[n - 1] = `line ${n}: edited in repetition ${rep}`;
        writeFileSync(p, lines.join('\n'));
        return ms(ns() - t0);
      } },
      { label: 'Node fs, atomic (tmp + fsync + rename)', once: async (rep) => {
        const p = join(projReal, 'node.txt');
        const t0 = ns();
        const lines = readFileSync(p, 'utf8').split('\n');
        for (const n of lineNos(rep)) lines[n - 1] = `line ${n}: edited in repetition ${rep}`;
        const tmp = `${p}.tmp`;
        const fd = openSync(tmp, 'w');
        writeSync(fd, lines.join('\n'));
        fsyncSync(fd);
        closeSync(fd);
        renameSync(tmp, p);
        return ms(ns() - t0);
      } },
    ];
    const m = await measure('edit', subjects);
    results.push({ name: 'Edit', file: { lines: LINES, ops: OPS }, reveals, revealCallMedianMs: revealMs.length ? r1(median(revealMs)) : null,
      readLimit1MedianMs: readMs.length ? r1(median(readMs)) : null, tag: lastTag, subjects: m,
      ratios: [
        { what: 'pi-host Edit / Node fs read+write', value: r2(m[0].medianMs / m[1].medianMs), goal: '<= 3', met: m[0].medianMs / m[1].medianMs <= 3 },
        { what: 'pi-host Edit / Node fs atomic', value: r2(m[0].medianMs / m[2].medianMs), goal: '(reference only)', met: null },
      ] });
  }

  clearTimeout(deadline);
  await Promise.all(hosts.map((h) => h.stop()));
  killAll();

  const cpu = cpus()[0]?.model || '?';
  const out = {
    date: new Date().toISOString(),
    machine: { cpu, nproc: availableParallelism(), memGiB: r1(totalmem() / 2 ** 30), load: loadavg().map(r2),
      platform: `${process.platform} ${process.arch}`, node: process.version, rg: rgVersion },
    tree: { zip, path: tree, files }, reps: o.reps, hostVersion: info.result?.hostVersion, results,
  };
  const L = [];
  L.push(`File tools, ${o.reps} repetitions per subject after 1 warm-up, alternating (${out.date})`);
  L.push(`machine: ${cpu}, ${out.machine.nproc} CPUs, load ${out.machine.load.join(' ')}; ${rgVersion}; node ${process.version}`);
  L.push(`tree: ${tree} (${files} files, from ${zip})`);
  for (const r of results) {
    L.push('');
    let head = r.name;
    if (r.name === 'Grep') head += ` "ConcurrentHashMap", files mode: raw rg lists ${r.rgFiles} files; pi-host ${Object.entries(r.piHost).map(([e, v]) => `(${e}) ${v.files} files${v.truncated ? ', truncated' : ''}`).join(', ')}`;
    if (r.name === 'Glob') head += ` **/*.java: rg lists ${r.rgFiles}; pi-host ${Object.entries(r.piHost).map(([e, v]) => `(${e}) count ${v.count}${v.truncated ? ', truncated (shows 1000)' : ''}`).join(', ')}`;
    if (r.name === 'Read') head += `: ${r.file.bytes} bytes, ${r.file.lines} lines, tag ${r.tag}`;
    if (r.name === 'Edit') head += `: ${r.file.lines} lines, ${r.file.ops} ops; EDIT_LINES_UNSEEN reveals ${r.reveals} (reveal call median ${r.revealCallMedianMs} ms, Read limit 1 median ${r.readLimit1MedianMs} ms; neither counted)`;
    L.push(head);
    for (const s of r.subjects) {
      L.push(`  ${s.label.padEnd(44)} median ${String(s.medianMs).padStart(8)} ms   [${s.samplesMs.join(', ')}]`
        + (s.cpuMedianMs === undefined ? '' : `   cpu ${s.cpuMedianMs} ms`));
    }
    for (const q of r.ratios) L.push(`  ratio ${q.what.padEnd(38)} ${q.value.toFixed(2)}   goal ${q.goal}${q.met === null ? '' : q.met ? ': met' : ': MISSED'}`);
  }
  console.log(L.join('\n'));
  if (o.json) console.log(JSON.stringify(out));
}

main().catch((e) => {
  if (!stopping) console.error(`bench: ${e.stack || e}`);
  stopAll(1);
});
