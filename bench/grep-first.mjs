#!/usr/bin/env node
// First Grep of a session (issue 19; a benchmark, not a timed test): a fresh pi-host (as bin/pi-host starts
// it, on every JVM it could pick), one session on the JDK source tree, and its first Grep, in content mode
// against `rg -n PATTERN TREE` and in files mode against `rg -l PATTERN TREE`, the page cache warm for both
// (the tree is read once before the first measurement). pi-host's time is the call's: from writing the
// tools.execute line until its answer is read (the start itself is bench/startup.sh's figure); rg's from
// spawn() to its exit. Each repetition starts new hosts; the subjects alternate, the order rotating.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAll, live, ns, startServer, stopAll } from './jsonrpc.mjs';
import { prepareTree } from './jdk-tree.mjs';
import { jvmChoices, piHostCommand } from './pi-host-command.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));

const USAGE = `usage: bench/grep-first.sh [options]
  -r, --reps N        fresh starts per JVM and mode (default 5), after 1 warm-up
  --pattern P         the regular expression (default ConcurrentHashMap)
  --cache DIR         where the JDK sources are extracted once (default bench/.cache)
  --src-zip FILE      the JDK src.zip (default: $JAVA_HOME/lib/src.zip, else /usr/lib/jvm/*/lib/src.zip)
  --timeout S         per call (default 120)
  --gap MS            pause between session.create's answer and the Grep (default 0: at once; a model
                      takes longer than that to ask for its first call, and the host's start-up tail
                      still runs right after its first answer)
  --json              also print one JSON object as the last line`;

const GOALS = { content: { ref: 'rg -n', flag: '-n', goal: 1.5 }, files: { ref: 'rg -l', flag: '-l', goal: 1.1 } };

function parseArgs(argv) {
  const o = { reps: 5, pattern: 'ConcurrentHashMap', cache: join(benchDir, '.cache'), srcZip: null, timeoutS: 120, gapMs: 0, json: false };
  const need = (i) => { if (i + 1 >= argv.length) fail(`${argv[i]} needs a value`); return argv[i + 1]; };
  for (let i = 0; i < argv.length; i++) {
    switch (argv[i]) {
      case '-r': case '--reps': o.reps = Math.max(1, Math.floor(Number(need(i)))); i++; break;
      case '--pattern': o.pattern = need(i); i++; break;
      case '--cache': o.cache = resolve(need(i)); i++; break;
      case '--src-zip': o.srcZip = resolve(need(i)); i++; break;
      case '--timeout': o.timeoutS = Number(need(i)); i++; break;
      case '--gap': o.gapMs = Math.max(0, Number(need(i))); i++; break;
      case '--json': o.json = true; break;
      case '-h': case '--help': console.log(USAGE); process.exit(0); break;
      default: fail(`unknown option: ${argv[i]}\n${USAGE}`);
    }
  }
  return o;
}

function fail(msg) {
  console.error(`bench: ${msg}`);
  killAll();
  process.exit(2);
}

/** Runs rg to its exit, its output drained; resolves the time from spawn to exit in ms. */
function runRg(args, timeoutMs) {
  return new Promise((res, rej) => {
    const t0 = ns();
    const child = spawn('rg', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    let bytes = 0;
    child.stdout.on('data', (c) => { bytes += c.length; });
    child.stderr.resume();
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); live.delete(child); rej(e); });
    child.on('close', (code) => {
      const t1 = ns();
      clearTimeout(timer);
      live.delete(child);
      if (code !== 0) rej(new Error(`rg ${args.join(' ')}: exit ${code}`));
      else res({ ms: Number(t1 - t0) / 1e6, bytes });
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const timeoutMs = o.timeoutS * 1000;
  let tree;
  try { ({ tree } = prepareTree(o.cache, o.srcZip)); } catch (e) { fail(e.message); }
  try { execFileSync('rg', ['--version'], { stdio: 'ignore' }); } catch { fail('rg is not on PATH (apt-get install ripgrep): it is the reference'); }
  const scratch = mkdtempSync(join(tmpdir(), 'pi-host-grep-first-'));
  process.on('exit', () => { try { rmSync(scratch, { recursive: true, force: true }); } catch { /* best effort */ } });
  const hosts = jvmChoices().map((c, k) => {
    const dataDir = join(scratch, `data-${k}`);
    return { ...c, command: piHostCommand(['serve', '--stdio', '--data-dir', dataDir], c.env) };
  });
  for (const h of hosts) console.error(`bench: pi-host [${h.label}]: ${h.command.cmd} ${h.command.args.join(' ')}`);

  /** One fresh host, one session on the tree, its first Grep: the call's time in ms. */
  const firstGrep = async (h, mode) => {
    const s = startServer(`pi-host [${h.label}]`, h.command.cmd, h.command.args, timeoutMs);
    try {
      const created = (await s.call('session.create', { projectRoot: tree, permissionMode: 'auto' })).response;
      if (created.error) throw new Error(`session.create: ${JSON.stringify(created.error)}`);
      if (o.gapMs > 0) await new Promise((r) => setTimeout(r, o.gapMs));
      const r = await s.call('tools.execute', { sessionId: created.result.sessionId, turnId: 't1', toolCallId: 'c1',
        name: 'Grep', arguments: { pattern: o.pattern, outputMode: mode } });
      const res = r.response.result;
      if (!res || res.ok !== true) throw new Error(`Grep ${mode}: ${JSON.stringify(r.response).slice(0, 600)}`);
      return r.ns / 1e6;
    } finally {
      await s.stop();
    }
  };
  const subjects = [];
  for (const mode of Object.keys(GOALS)) {
    for (const h of hosts) subjects.push({ key: `${h.label} ${mode}`, mode, host: h, once: () => firstGrep(h, mode) });
    subjects.push({ key: `${GOALS[mode].ref}`, mode, once: async () => (await runRg([GOALS[mode].flag, o.pattern, tree], timeoutMs)).ms });
  }
  const samples = new Map(subjects.map((s) => [s.key, []]));
  for (let rep = 0; rep <= o.reps; rep++) { // rep 0: warm-up (the page cache, each data dir's bundle cache)
    for (let j = 0; j < subjects.length; j++) {
      const s = subjects[(rep + j) % subjects.length];
      const v = await s.once();
      if (rep > 0) samples.get(s.key).push(v);
    }
    console.error(`bench: rep ${rep}/${o.reps}${rep === 0 ? ' (warm-up)' : ''} done`);
  }
  const result = { date: new Date().toISOString(), load: loadavg(), reps: o.reps, pattern: o.pattern, gapMs: o.gapMs, tree, goals: [] };
  const out = [`First Grep of a session on the JDK sources (${tree}), pattern ${o.pattern}, ${o.reps} fresh starts per JVM and mode, ${o.gapMs ? `${o.gapMs} ms after session.create's answer` : "right after session.create's answer"} (${result.date})`];
  for (const s of subjects) out.push(`${(s.host ? `pi-host first Grep ${s.mode} [${s.host.label}]` : s.key).padEnd(40)} median ${median(samples.get(s.key)).toFixed(1).padStart(8)} ms`);
  for (const mode of Object.keys(GOALS)) {
    const ref = median(samples.get(GOALS[mode].ref));
    for (const h of hosts) {
      const ratio = median(samples.get(`${h.label} ${mode}`)) / ref;
      const met = ratio <= GOALS[mode].goal;
      result.goals.push({ mode, jvm: h.command.choice, label: h.label, ratio, goal: GOALS[mode].goal, met });
      out.push(`goal first Grep ${mode} <= ${GOALS[mode].goal}x ${GOALS[mode].ref} [${h.label}]: ratio ${ratio.toFixed(2)}  ${met ? 'MET' : 'MISSED'}`);
    }
  }
  out.push(`load average at the end: ${result.load.map((x) => x.toFixed(2)).join(' ')}`);
  console.log(out.join('\n'));
  if (o.json) console.log(JSON.stringify(result));
  killAll();
}

main().catch((e) => {
  console.error(`bench: ${e.stack || e}`);
  stopAll(1);
});
