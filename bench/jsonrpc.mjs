// Shared by the stdio benchmark harnesses (rpc.mjs, mcp.mjs): child bookkeeping (nothing outlives a
// benchmark), a line-based JSON-RPC client over a child's stdio, /proc CPU time, and percentiles.

import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// ---- child bookkeeping: nothing outlives the benchmark ----------------------------------------

export const live = new Set();

export function killAll() {
  for (const child of live) {
    try { child.kill('SIGKILL'); } catch { /* already gone */ }
  }
  live.clear();
}

/** SIGKILLs every live child, waits (at most 2 s) until they are reaped, then exits. */
let stopping = false;
export const isStopping = () => stopping;
export function stopAll(code) {
  if (stopping) return;
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

// ---- a line-based JSON-RPC client over a child's stdio ----------------------------------------

export const ns = () => process.hrtime.bigint();

/**
 * Spawns a server and returns a client with call(method, params) -> {response, ns}, where ns is the
 * time from just before the request line is written until its response line has been read and
 * parsed. Lines without a matching id (notifications) are skipped.
 */
export function startServer(name, cmd, args, timeoutMs) {
  const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  live.add(child);
  let stderrTail = '';
  let buf = '';
  let nextId = 1;
  const pending = new Map();
  let exited = null;
  child.stdin.on('error', () => { /* EPIPE when the child died: reported through exit */ });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => { stderrTail = (stderrTail + chunk).slice(-4000); });
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
      if (!p || !('result' in msg || 'error' in msg)) continue; // a notification, or not ours
      const t1 = ns();
      pending.delete(msg.id);
      clearTimeout(p.timer);
      p.resolve({ response: msg, ns: Number(t1 - p.t0) });
    }
  });
  child.on('error', (e) => { exited = e; for (const p of pending.values()) p.reject(e); pending.clear(); });
  child.on('exit', (code, signal) => {
    live.delete(child);
    exited = new Error(`${name} exited (code ${code}, signal ${signal})\n${stderrTail}`);
    for (const p of pending.values()) { clearTimeout(p.timer); p.reject(exited); }
    pending.clear();
  });
  const call = (method, params) => new Promise((resolveCall, rejectCall) => {
    if (exited) { rejectCall(exited); return; }
    const id = nextId++;
    const timer = setTimeout(() => {
      pending.delete(id);
      rejectCall(new Error(`${name}: no response to ${method} within ${timeoutMs} ms\n${stderrTail}`));
    }, timeoutMs);
    const line = JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }) + '\n';
    pending.set(id, { resolve: resolveCall, reject: rejectCall, timer, t0: ns() });
    child.stdin.write(line);
  });
  const notify = (method, params) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method, params }) + '\n');
  /** Closes stdin (both servers exit at EOF), then SIGTERM at 5 s, SIGKILL at 10 s. */
  const stop = () => new Promise((r) => {
    if (child.exitCode !== null || child.signalCode !== null) { r(); return; }
    const t1 = setTimeout(() => child.kill('SIGTERM'), 5000);
    const t2 = setTimeout(() => child.kill('SIGKILL'), 10000);
    child.once('exit', () => { clearTimeout(t1); clearTimeout(t2); r(); });
    child.stdin.end();
  });
  return { name, child, call, notify, stop };
}

// CPU time (user + system, all threads) a live process has used so far, in ms (Linux /proc); null elsewhere.
let clockTicks = null;
export function cpuMsOf(pid) {
  try {
    if (clockTicks === null) {
      try { clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100; }
      catch { clockTicks = 100; }
    }
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / clockTicks;
  } catch {
    return null;
  }
}

// ---- statistics -------------------------------------------------------------------------------

/** Nearest-rank percentiles of samples in ns, reported in µs. */
export function stats(samplesNs) {
  const s = Float64Array.from(samplesNs).sort();
  const n = s.length;
  const pct = (p) => s[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))];
  const us = (x) => Math.round(x / 100) / 10;
  return {
    n, p50: us(pct(50)), p90: us(pct(90)), p99: us(pct(99)), min: us(s[0]), max: us(s[n - 1]),
    mean: us(s.reduce((a, b) => a + b, 0) / n),
  };
}

/** The median of numbers (the mean of the middle two for an even count). */
export function median(xs) {
  const a = [...xs].sort((x, y) => x - y);
  const k = a.length >> 1;
  return a.length % 2 ? a[k] : (a[k - 1] + a[k]) / 2;
}

// ---- the peer -----------------------------------------------------------------------------------

/**
 * The pinned MCP filesystem server in bench/node_modules: {pkg (its package.json), main (the script node
 * runs)}; null when it is not installed (npm ci --prefix bench).
 */
export function filesystemPeer(benchDir) {
  const dir = join(benchDir, 'node_modules', '@modelcontextprotocol', 'server-filesystem');
  if (!existsSync(join(dir, 'package.json'))) return null;
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return { pkg, main: join(dir, pkg.bin['mcp-server-filesystem']) };
}
