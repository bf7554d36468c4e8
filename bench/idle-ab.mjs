#!/usr/bin/env node
// Two (or more) builds' idle memory alternated start by start in one run (issue 19; an investigation aid
// beside bench/memory.sh, no goal of its own): each build is a checkout with its own bin/pi-host and
// bench/ (a clone of the base beside the branch, docs/performance.md "A/B"). Per start: VmRSS (RssAnon) at
// 1..SECONDS s after session.create's answer as bench/idle-trace.mjs reads it, the thread count at 3 s
// (memory.sh's moment) and, with --kinds, the resident MiB by mapping kind at 3 s (the same kinds as
// bench/idle-trace.mjs --kinds). Medians per build at the end.
// usage: node bench/idle-ab.mjs [--kinds] STARTS SECONDS LABEL=CHECKOUT ...   (PI_HOST_JAVA picks the java)
//   e.g. node bench/idle-ab.mjs --kinds 6 4 base=/tmp/x-base branch=.
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { killAll, median, startServer } from './jsonrpc.mjs';
import { KINDS, residentByKind } from './procfs.mjs';

const argv = process.argv.slice(2);
const withKinds = argv[0] === '--kinds';
const [starts, seconds, ...builds] = withKinds ? argv.slice(1) : argv;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const kb = (s, k) => Number((new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s) || [0, 0])[1]) / 1024;
const kindsOf = residentByKind;

const scratch = mkdtempSync(join(tmpdir(), 'pi-host-idle-ab-'));
const root = join(scratch, 'project');
mkdirSync(root, { recursive: true });
writeFileSync(join(root, 'a.txt'), 'x\n');
const marks = [1, 2, 3, 4, 5, 6, 8, 10].filter((s) => s <= Number(seconds));
const parsed = [];
for (const b of builds) {
  const [label, dir] = b.split(/=(.*)/s);
  const mod = await import(pathToFileURL(join(resolve(dir), 'bench', 'pi-host-command.mjs')).href);
  // prepared once, outside the readings (a stale build rebuilds, a missing archive is made here)
  const probe = mod.piHostCommand(['serve', '--stdio', '--data-dir', join(scratch, `warm-${label}`)]);
  parsed.push({ label, mod, choice: probe.choice, rows: [] });
}
console.log(`load ${loadavg().map((x) => x.toFixed(2)).join(' ')}; RSS (anon) MiB at s after session.create: ${marks.join(' ')}`);
for (const p of parsed) console.log(`${p.label}: ${p.choice}`);
for (let n = 0; n < Number(starts); n++) {
  for (const p of parsed) {
    const cmd = p.mod.piHostCommand(['serve', '--stdio', '--data-dir', join(scratch, `d${n}${p.label}`)]);
    const s = startServer(p.label, cmd.cmd, cmd.args, 120000);
    await s.call('host.info');
    await s.call('session.create', { projectRoot: root, permissionMode: 'auto' });
    const t0 = Date.now();
    const row = { rss: [], threads: 0, kinds: null };
    for (const m of marks) {
      await sleep(Math.max(0, t0 + m * 1000 - Date.now()));
      const st = readFileSync(`/proc/${s.child.pid}/status`, 'utf8');
      row.rss.push([kb(st, 'VmRSS'), kb(st, 'RssAnon')]);
      if (m === 3) {
        row.threads = readdirSync(`/proc/${s.child.pid}/task`).length;
        if (withKinds) row.kinds = kindsOf(s.child.pid);
      }
    }
    p.rows.push(row);
    await s.stop();
  }
}
for (const p of parsed) {
  for (const r of p.rows) {
    const k = r.kinds ? ` | ${KINDS.map((x) => `${x} ${r.kinds[x].toFixed(1)}`).join(', ')}` : '';
    console.log(`${p.label.padEnd(10)} ${r.rss.map(([v, a]) => `${v.toFixed(0)}(${a.toFixed(0)})`).join(' ')} threads ${r.threads}${k}`);
  }
}
console.log('medians (MiB):');
for (const p of parsed) {
  const at = marks.map((_, i) => median(p.rows.map((r) => r.rss[i][0])).toFixed(1));
  const k = withKinds ? ` | at 3 s: ${KINDS.map((x) => `${x} ${median(p.rows.map((r) => r.kinds[x])).toFixed(1)}`).join(', ')}` : '';
  console.log(`${p.label.padEnd(10)} VmRSS ${at.join(' ')}; threads ${median(p.rows.map((r) => r.threads))}${k}`);
}
console.log(`load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
rmSync(scratch, { recursive: true, force: true });
killAll();
