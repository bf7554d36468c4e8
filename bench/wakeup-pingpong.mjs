#!/usr/bin/env node
// What a wake-up costs on this machine (issue 19's first 200 Reads; a reading, no goal): node and a tiny
// JVM stdio server (bench/src/main/java/pi/host/bench/wakeup/PingPong.java) pass one line back and forth, as a client and pi-host do
// for each call, and the variants add what pi-host's threads may add to a call: the answer written by
// another thread (one in-process hand-off), a thread that naps 1 ms at a time beside the calls (the stdio
// watchdog), one woken per line (the audit copier), one that spins (the second vCPU kept busy). Each
// variant is its own process; variants run in turn, round after round, order flipping, so a phase of the
// machine falls on all. Per variant: the p50 round trip of the first --first calls and of all, and per call
// the JVM's voluntary context switches (its sleeps, each ended by a wake-up) and scheduler delay (/proc).
// Usage: node bench/wakeup-pingpong.mjs [-r ROUNDS] [-n CALLS] [--first N] [--java JAVA] [VARIANT ...]
// A variant is "reply=direct|handoff,beside=none|tick|wake|spin"; the default set covers the cases above.
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAll, startServer } from './jsonrpc.mjs';
import { threadSwitches } from './procfs.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const o = { rounds: 4, calls: 2000, first: 200, java: 'java', variants: [] };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  const v = process.argv[i + 1];
  if (a === '-r') { o.rounds = Number(v); i++; } else if (a === '-n') { o.calls = Number(v); i++; }
  else if (a === '--first') { o.first = Number(v); i++; } else if (a === '--java') { o.java = v; i++; }
  else if (a.startsWith('-')) { console.error(`unknown option ${a}`); process.exit(2); } else o.variants.push(a);
}
if (o.variants.length === 0) {
  o.variants = ['reply=direct,beside=none', 'reply=handoff,beside=none', 'reply=direct,beside=tick',
    'reply=handoff,beside=tick', 'reply=direct,beside=wake', 'reply=direct,beside=spin', 'reply=handoff,beside=spin'];
}
const p50 = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.max(0, Math.ceil(s.length / 2) - 1)]; };
const sum = (m, k) => [...m.values()].reduce((a, t) => a + t[k], 0);
const results = new Map(o.variants.map((v) => [v, { first: [], all: [], vol: [], delayUs: [] }]));
const loads = [];

for (let round = 0; round < o.rounds; round++) {
  const order = round % 2 === 0 ? o.variants : [...o.variants].reverse();
  for (const variant of order) {
    const s = startServer(variant, o.java, [join(here, 'src', 'main', 'java', 'pi', 'host', 'bench', 'wakeup', 'PingPong.java'), ...variant.split(',')], 60000);
    try {
      await s.call('warm', {}); // the source launcher compiles the program first: not part of the figure
      const before = threadSwitches(s.child.pid);
      const times = [];
      for (let n = 1; n <= o.calls; n++) times.push((await s.call('ping')).ns / 1000);
      const after = threadSwitches(s.child.pid);
      const r = results.get(variant);
      r.first.push(p50(times.slice(0, o.first)));
      r.all.push(p50(times));
      r.vol.push((sum(after, 'voluntary') - sum(before, 'voluntary')) / o.calls);
      r.delayUs.push((sum(after, 'waitNs') - sum(before, 'waitNs')) / o.calls / 1000);
    } finally {
      await s.stop();
    }
    loads.push(loadavg()[0]);
  }
}
console.log(`wake-up ping-pong: ${o.rounds} rounds, ${o.calls} calls each, ${o.java}; load ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`);
console.log(`${'variant'.padEnd(28)} ${'p50 first'.padStart(10)} ${'p50 all'.padStart(9)} ${'sleeps/call'.padStart(12)} ${'delay µs/call'.padStart(14)}   (rounds' figures)`);
for (const [v, r] of results) {
  const f = (xs, d = 0) => xs.map((x) => x.toFixed(d)).join(' ');
  console.log(`${v.padEnd(28)} ${p50(r.first).toFixed(0).padStart(10)} ${p50(r.all).toFixed(0).padStart(9)} ${p50(r.vol).toFixed(2).padStart(12)} ${p50(r.delayUs).toFixed(1).padStart(14)}   (${f(r.first)} | ${f(r.all)} | ${f(r.vol, 2)})`);
}
killAll();
