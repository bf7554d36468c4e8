#!/usr/bin/env node
// What the JIT's queues hold while the first calls run (issue 19; a reading, not a goal): reads one
// -XX:+LogCompilation file (bench/first-reads-threads.mjs --diag writes them) and a window [FROM, TO] in
// seconds since the JVM started (first-reads-threads.mjs prints each start's calls' window), and prints
// the C2 queue's length at the window's start and end, the compilations queued before the window and still
// waiting at its start by package (the backlog the calls wait behind), and those queued inside the window
// by tier and package (tier 2: C1 without full profiling, picked when C2's queue is long). LogCompilation
// leaves out the level of a tier-4 (C2) task.
// Also: how many times the call path's methods without a loop (pi.host, Jackson; no backedge count) had been
// invoked when C1 was asked for them inside the window (quartiles): the tier-3 threshold times the load
// feedback's factor (Tier3LoadFeedback), i.e. how many calls run such a method in the interpreter.
// Then the largest C2 tasks queued from FROM on and the methods C2 compiled more than once (branch c2big12).
// Usage: node bench/jit-queue.mjs LOG FROM TO [--depth N]
import { readFileSync } from 'node:fs';

const [log, fromS, toS] = process.argv.slice(2);
const depthAt = process.argv.indexOf('--depth');
const depth = depthAt > 0 ? Number(process.argv[depthAt + 1]) : 3;
if (!log || fromS === undefined || toS === undefined) { console.error('usage: jit-queue.mjs LOG FROM TO [--depth N]'); process.exit(2); }
const from = Number(fromS);
const to = Number(toS);
const text = readFileSync(log, 'utf8');
const attr = (tag, name) => { const m = new RegExp(`\\s${name}='([^']*)'`).exec(tag); return m ? m[1] : undefined; };
const pkg = (method) => method.split(' ')[0].split('.').slice(0, depth).join('.');

/** compile_id -> {method, level, queued, started, done} */
const tasks = new Map();
for (const m of text.matchAll(/<task_queued [^>]*>/g)) {
  const t = m[0];
  tasks.set(attr(t, 'compile_id'), { method: attr(t, 'method'), level: Number(attr(t, 'level') ?? 4), queued: Number(attr(t, 'stamp')), osr: attr(t, 'osr_bci') !== undefined,
    count: Number(attr(t, 'count') ?? NaN), backedges: Number(attr(t, 'backedge_count') ?? 0) });
}
// a compiler thread's task and its task_done follow each other in its compilation_log
for (const m of text.matchAll(/<task (compile_id='[^']*')[^>]*stamp='([^']*)'[^>]*>[\s\S]*?(<task_done [^>]*>)/g)) {
  const id = /'([^']*)'/.exec(m[1])[1];
  const t = tasks.get(id);
  if (t) {
    t.started = Number(m[2]); t.done = Number(attr(m[3], 'stamp'));
    t.inlinedBytes = Number(attr(m[3], 'inlined_bytes') ?? 0); t.codeBytes = Number(attr(m[3], 'nmsize') ?? 0);
  }
}
const all = [...tasks.values()];
const waitingAt = (s, level) => all.filter((t) => (level === 4 ? t.level === 4 : t.level < 4) && t.queued <= s && !(t.started <= s));
const count = (xs, key) => { const c = new Map(); for (const x of xs) c.set(key(x), (c.get(key(x)) ?? 0) + 1); return [...c].sort((a, b) => b[1] - a[1]); };
const top = (pairs, n = 12) => pairs.slice(0, n).map(([k, v]) => `${k} ${v}`).join(', ');

console.log(`${log}: ${all.length} compilations queued, window ${from}-${to} s`);
const line = [];
for (let s = 0.5; s < to + 0.25; s += 0.5) line.push(`${s.toFixed(1)}: ${waitingAt(s, 4).length}/${waitingAt(s, 1).length}`);
console.log(`  waiting C2/C1 every 0.5 s: ${line.join('  ')}`);
for (const s of [from, (from + to) / 2, to]) {
  console.log(`  at ${s.toFixed(2)} s waiting: C2 ${waitingAt(s, 4).length}, C1 ${waitingAt(s, 1).length}`);
}
const backlog = waitingAt(from, 4);
console.log(`  C2 backlog at the window's start by package: ${top(count(backlog, (t) => pkg(t.method)))}`);
const cleared = backlog.filter((t) => t.done !== undefined).map((t) => t.done).sort((a, b) => a - b);
if (cleared.length) console.log(`  that backlog's last compilation done at ${cleared[cleared.length - 1].toFixed(2)} s (its median at ${cleared[Math.floor(cleared.length / 2)].toFixed(2)} s)`);
const before = all.filter((t) => t.queued < from);
console.log(`  queued before the window: ${before.length} (tier 4: ${before.filter((t) => t.level === 4).length}); by package: ${top(count(before, (t) => pkg(t.method)), 10)}`);
const inside = all.filter((t) => t.queued >= from && t.queued <= to);
console.log(`  queued in the window: ${inside.length}; by tier: ${top(count(inside, (t) => `tier ${t.level}${t.osr ? ' osr' : ''}`))}`);
for (const level of [2, 3, 4]) {
  const xs = inside.filter((t) => t.level === level);
  console.log(`    tier ${level} (${xs.length}) by package: ${top(count(xs, (t) => pkg(t.method)))}`);
}
const quart = (xs) => { const v = [...xs].sort((a, b) => a - b); const q = (f) => v[Math.min(v.length - 1, Math.floor(f * v.length))]; return v.length ? `${q(0.25)} / ${q(0.5)} / ${q(0.75)}` : '-'; };
const loopless = inside.filter((t) => t.level < 4 && !t.osr && t.backedges === 0 && Number.isFinite(t.count)
  && /^(pi\.host|com\.fasterxml\.jackson)/.test(t.method));
console.log(`  call path without loops queued for C1 in the window: ${loopless.length} methods; invocations at queueing, quartiles ${quart(loopless.map((t) => t.count))}`
  + ` (tier 3: ${loopless.filter((t) => t.level === 3).length}, ${quart(loopless.filter((t) => t.level === 3).map((t) => t.count))})`);
const c2Busy = all.filter((t) => t.level === 4 && t.started !== undefined && t.done > from && t.started < to);
const c2InWindow = c2Busy.reduce((a, t) => a + Math.min(t.done, to) - Math.max(t.started, from), 0);
console.log(`  C2 compile time inside the window: ${(c2InWindow * 1000).toFixed(0)} ms; by package: ${top(count(c2Busy, (t) => pkg(t.method)))}`);
// the largest C2 tasks queued from the window's start on (they hold C2's one thread while the calls' other methods
// wait in its queue), and the methods C2 compiled more than once (an OSR and a normal one, or again after a
// deoptimisation): bytecode inlined and code made, as LogCompilation's task_done gives them
const c2From = all.filter((t) => t.level === 4 && t.queued >= from && t.done !== undefined);
const ms = (t) => (t.done - t.started) * 1000;
const short = (t) => { const [cls, name] = t.method.split(' '); return `${cls.split('.').pop()}.${name}`; };
console.log(`  C2 tasks queued from the window's start: ${c2From.length}, ${c2From.reduce((a, t) => a + ms(t), 0).toFixed(0)} ms in all;`
  + ` the largest: ${[...c2From].sort((a, b) => ms(b) - ms(a)).slice(0, 8)
    .map((t) => `${short(t)}${t.osr ? ' (OSR)' : ''} ${ms(t).toFixed(0)} ms, ${t.inlinedBytes} B inlined`).join('; ')}`);
const byMethod = new Map();
for (const t of all.filter((x) => x.level === 4 && x.done !== undefined)) byMethod.set(t.method, [...(byMethod.get(t.method) ?? []), t]);
const again = [...byMethod.values()].filter((xs) => xs.length > 1).sort((a, b) => b.reduce((s, t) => s + ms(t), 0) - a.reduce((s, t) => s + ms(t), 0));
console.log(`  methods C2 compiled more than once: ${again.length}; the costliest: ${again.slice(0, 6)
  .map((xs) => `${short(xs[0])} ${xs.map((t) => `${t.osr ? 'OSR ' : ''}${ms(t).toFixed(0)} ms`).join(' + ')}`).join('; ')}`);
