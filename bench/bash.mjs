#!/usr/bin/env node
// Bash benchmark (issue 5), one run, both sides measured together:
//  1. latency: Bash `true` through pi-host's pipeline (tools.execute over stdio, send -> response)
//     vs `bash -c true` spawned directly by this harness (spawn -> exit). Goal: pipeline <= 1.3x + 5 ms.
//  2. drain: `yes | head -c 1 GiB` through Bash; throughput, and the host's heap sampled with
//     `jstat -gc` every 100 ms (peak used and committed growth over the idle baseline).
//     Goal: > 200 MB/s with < 64 MB heap growth.
// Usage: node bench/bash.mjs [--reps N] [--bytes N]. Results on stdout, progress on stderr.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { launcherJvmOptions } from './jvm-options.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const jar = join(root, 'bundles', 'target', 'pi.host.launcher.jar');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const REPS = arg('--reps', 30);
const BYTES = arg('--bytes', 1024 * 1024 * 1024);
const WARMUP = 5;

const data = mkdtempSync(join(tmpdir(), 'pi-bench-data-'));
const project = mkdtempSync(join(tmpdir(), 'pi-bench-proj-'));
const children = new Set();
const cleanup = () => {
  for (const c of children) { try { c.kill('SIGKILL'); } catch { /* gone */ } }
  rmSync(data, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
};
process.on('SIGINT', () => { cleanup(); process.exit(130); });
const deadline = setTimeout(() => { console.error('bench: deadline (600 s) reached'); cleanup(); process.exit(3); }, 600_000);
deadline.unref();

const host = spawn('java', [...launcherJvmOptions(jar), '-jar', jar, 'serve', '--stdio', '--data-dir', data], { stdio: ['pipe', 'pipe', 'inherit'] });
children.add(host);
const waiting = new Map();
createInterface({ input: host.stdout }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id !== undefined && waiting.has(msg.id)) {
    waiting.get(msg.id)(msg);
    waiting.delete(msg.id);
  }
});
let nextId = 1;
const request = (method, params) => new Promise((resolve) => {
  const id = nextId++;
  waiting.set(id, resolve);
  host.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
});

const bashDirect = (flags = '-c') => new Promise((resolve, reject) => {
  const t0 = process.hrtime.bigint();
  const c = spawn('bash', [flags, 'true'], { stdio: 'ignore', cwd: project });
  c.on('exit', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - t0) / 1e6) : reject(new Error('bash ' + code))));
});
let call = 0;
const bashPipeline = async (session, command, extra = {}) => {
  const t0 = process.hrtime.bigint();
  const r = await request('tools.execute', { sessionId: session, turnId: 't1', toolCallId: 'b' + (call++), name: 'Bash',
    arguments: { command, ...extra } });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (!r.result || !r.result.ok) throw new Error('Bash failed: ' + JSON.stringify(r).slice(0, 500));
  return { ms, result: r.result };
};
const noop = async (session) => {
  const t0 = process.hrtime.bigint();
  const r = await request('tools.execute', { sessionId: session, turnId: 't1', toolCallId: 'n' + (call++), name: 'new_context', arguments: {} });
  if (!r.result || !r.result.ok) throw new Error('new_context failed: ' + JSON.stringify(r).slice(0, 500));
  return Number(process.hrtime.bigint() - t0) / 1e6;
};
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };

// jstat -gc columns: S0C S1C S0U S1U EC EU OC OU ... (KB)
function heapSampler(pid) {
  const samples = [];
  const j = spawn('jstat', ['-gc', String(pid), '100'], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.add(j);
  let header = null;
  createInterface({ input: j.stdout }).on('line', (line) => {
    const cols = line.trim().split(/\s+/);
    if (!header) { header = cols; return; }
    const v = (name) => Number(cols[header.indexOf(name)]);
    samples.push({ used: v('S0U') + v('S1U') + v('EU') + v('OU'), committed: v('S0C') + v('S1C') + v('EC') + v('OC') });
  });
  return { samples, stop: () => { j.kill('SIGKILL'); children.delete(j); } };
}

try {
  const info = await request('host.info', {});
  if (!info.result) throw new Error('host.info failed');
  const session = (await request('session.create', { projectRoot: project, permissionMode: 'auto' })).result.sessionId;
  console.error(`bench: warming up (${WARMUP} rounds) ...`);
  for (let i = 0; i < WARMUP; i++) { await bashPipeline(session, 'true'); await bashDirect(); }
  const pipe = []; const direct = []; const login = []; const floor = [];
  for (let i = 0; i < REPS; i++) {
    if (i % 2 === 0) { pipe.push((await bashPipeline(session, 'true')).ms); direct.push(await bashDirect()); login.push(await bashDirect('-lc')); }
    else { login.push(await bashDirect('-lc')); direct.push(await bashDirect()); pipe.push((await bashPipeline(session, 'true')).ms); }
    floor.push(await noop(session));
  }
  const mp = median(pipe); const md = median(direct); const ml = median(login);
  console.log(`latency (${REPS} reps, medians): Bash true through the pipeline ${mp.toFixed(1)} ms (p90 ${pct(pipe, 0.9).toFixed(1)}),`
    + ` bash -c true spawned directly ${md.toFixed(1)} ms (p90 ${pct(direct, 0.9).toFixed(1)});`
    + ` ratio ${(mp / md).toFixed(2)}; goal ${(1.3 * md + 5).toFixed(1)} ms (1.3x + 5 ms): ${mp <= 1.3 * md + 5 ? 'met' : 'NOT met'}`);
  console.log(`  for reference, the pipeline floor (new_context, a no-op builtin, same RPC, policy and audit row): ${median(floor).toFixed(1)} ms (p90 ${pct(floor, 0.9).toFixed(1)})`);
  console.log(`  for reference, bash -lc true spawned directly (the login shell Bash runs): ${ml.toFixed(1)} ms (p90 ${pct(login, 0.9).toFixed(1)});`
    + ` pipeline/login ratio ${(mp / ml).toFixed(2)}, against 1.3x + 5 ms = ${(1.3 * ml + 5).toFixed(1)} ms: ${mp <= 1.3 * ml + 5 ? 'met' : 'NOT met'}`);

  const sampler = heapSampler(host.pid);
  await new Promise((r) => setTimeout(r, 1000));
  const base = sampler.samples.length ? sampler.samples[sampler.samples.length - 1] : { used: 0, committed: 0 };
  const { ms, result } = await bashPipeline(session, `yes | head -c ${BYTES}`, { timeout: 600 });
  await new Promise((r) => setTimeout(r, 300));
  sampler.stop();
  const during = sampler.samples.slice(1);
  const peakUsed = Math.max(...during.map((s) => s.used)); const peakCommitted = Math.max(...during.map((s) => s.committed));
  const mbps = (BYTES / 1e6) / (ms / 1000);
  const growth = (peakUsed - base.used) / 1024;
  console.log(`drain: ${BYTES} bytes in ${ms.toFixed(0)} ms = ${mbps.toFixed(0)} MB/s (cut ${result.details.stdoutCutChars} chars);`
    + ` heap used ${(base.used / 1024).toFixed(0)} MB before, peak ${(peakUsed / 1024).toFixed(0)} MB (growth ${growth.toFixed(0)} MB),`
    + ` committed ${(base.committed / 1024).toFixed(0)} -> peak ${(peakCommitted / 1024).toFixed(0)} MB; ${during.length} samples;`
    + ` goal > 200 MB/s with < 64 MB growth: ${mbps > 200 && growth < 64 ? 'met' : 'NOT met'}`);
  host.stdin.end();
  await new Promise((r) => host.on('exit', r));
  children.delete(host);
  cleanup();
} catch (e) {
  console.error('bench: ' + e.message);
  cleanup();
  process.exit(1);
}
