#!/usr/bin/env node
// Memory benchmark (a benchmark, not a timed test; issue 19): resident memory of pi-host serve --stdio, as
// bin/pi-host starts it (every JVM it could pick), against the npm MCP filesystem server in the same run:
//   idle:   RSS (VmRSS of /proc/PID/status) after the first answer and --settle ms of quiet; goal <= 1.5x the peer's
//   steady: RSS after --calls mixed calls (Read, Grep, Glob, Write, a Read of the written file, a Bash every 20th) and the same
//           settle; goal <= 2x pi-host's own idle figure (no growth per call). The peer gets as many
//           read_text_file / search_files / write_file calls, for reference.
// Every child is killed at exit; the whole run has a deadline.

import { filesystemPeer, killAll, startServer, stopAll, isStopping } from './jsonrpc.mjs';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jvmChoices, piHostCommand } from './pi-host-command.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const USAGE = `usage: bench/memory.sh [options]
  -n, --calls N     mixed calls per server before the steady figure (default 10000)
      --settle MS   quiet time before each reading (default 3000)
      --json        also print one JSON object as the last line
      --deadline S  limit for the whole run (default 900)
  -h, --help        this text`;

const IDLE_GOAL = 1.5;
const STEADY_GOAL = 2.0;

function parseArgs(argv) {
  const o = { calls: 10000, settleMs: 3000, json: false, deadlineS: 900 };
  for (let i = 0; i < argv.length; i++) {
    const v = () => { if (i + 1 >= argv.length) fail(`${argv[i]} needs a value`); return Number(argv[++i]); };
    switch (argv[i]) {
      case '-n': case '--calls': o.calls = v(); break;
      case '--settle': o.settleMs = v(); break;
      case '--deadline': o.deadlineS = v(); break;
      case '--json': o.json = true; break;
      case '-h': case '--help': console.log(USAGE); process.exit(0); break;
      default: fail(`unknown option ${argv[i]}\n${USAGE}`);
    }
  }
  return o;
}

function fail(msg) {
  console.error(`bench: ${msg}`);
  killAll();
  process.exit(2);
}

/** Resident set of a process in MiB (VmRSS), and its anonymous and file parts. */
function rss(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number((new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status) || [0, 0])[1]);
  return { rss: kb('VmRSS') / 1024, anon: kb('RssAnon') / 1024, file: kb('RssFile') / 1024 };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mib = (x) => `${x.toFixed(1)} MiB`;

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const deadline = setTimeout(() => { console.error('bench: deadline reached'); stopAll(3); }, o.deadlineS * 1000);
  const fsPeer = filesystemPeer(benchDir);
  if (!fsPeer) fail('the MCP filesystem server is not installed: npm ci --prefix bench');
  const peerMain = fsPeer.main;
  const scratch = mkdtempSync(join(tmpdir(), 'pi-host-memory-'));
  process.on('exit', () => { try { rmSync(scratch, { recursive: true, force: true }); } catch { /* best effort */ } });
  const root = join(scratch, 'project');
  mkdirSync(join(root, 'src'), { recursive: true });
  for (let i = 0; i < 50; i++) {
    writeFileSync(join(root, 'src', `f${i}.txt`), Array.from({ length: 40 }, (_, j) => `line ${j} of ${i}${j % 7 ? '' : ' TODO'}`).join('\n') + '\n');
  }
  const rootReal = realpathSync(root);
  const timeoutMs = 60000;

  const results = [];
  const peerFigures = await measure('peer', process.execPath, [peerMain, rootReal], async (server) => {
    const init = (await server.call('initialize', { protocolVersion: '2025-06-18', capabilities: {},
      clientInfo: { name: 'pi-host-bench', version: '0' } })).response;
    if (init.error) throw new Error(`peer initialize: ${JSON.stringify(init.error)}`);
    server.notify('notifications/initialized', {});
  }, (server, i) => {
    const kind = i % 4;
    const call = kind === 0 || kind === 1 ? { name: 'read_text_file', arguments: { path: join(rootReal, 'src', `f${i % 50}.txt`) } }
      : kind === 2 ? { name: 'search_files', arguments: { path: rootReal, pattern: 'f1' } }
        : { name: 'write_file', arguments: { path: join(rootReal, `w${i % 10}.txt`), content: `write ${i}\n` } };
    return server.call('tools/call', call).then((r) => {
      if (r.response.error || r.response.result?.isError) throw new Error(`peer ${call.name}: ${JSON.stringify(r.response).slice(0, 300)}`);
    });
  }, o);

  for (const c of jvmChoices()) {
    const command = piHostCommand(['serve', '--stdio', '--data-dir', join(scratch, `data-${c.label.replace(/\W+/g, '')}`)], c.env);
    console.error(`bench: pi-host [${c.label}]: ${command.cmd} ${command.args.join(' ')}`);
    // one start fills the bundle cache (an installed host has it); not measured
    const warm = startServer('pi-host', command.cmd, command.args, timeoutMs);
    await warm.call('host.info');
    await warm.stop();
    let sessionId;
    const tag = new Map();
    const figures = await measure(`pi-host [${c.label}]`, command.cmd, command.args, async (server) => {
      await server.call('host.info');
      sessionId = (await server.call('session.create', { projectRoot: rootReal, permissionMode: 'auto' })).response.result.sessionId;
    }, (server, i) => {
      const kind = i % 20 === 19 ? 'bash' : ['read', 'grep', 'glob', 'write', 'read', 'reread'][i % 6];
      const args = {
        read: ['Read', { path: `src/f${i % 50}.txt`, limit: 20 }],
        grep: ['Grep', { pattern: 'TODO', outputMode: 'files' }],
        glob: ['Glob', { pattern: '**/*.txt' }],
        write: ['Write', { path: `w${i % 10}.txt`, content: `write ${i}\n` }],
        reread: ['Read', { path: `w${i % 10}.txt` }],
        bash: ['Bash', { command: 'true' }],
      }[kind];
      return server.call('tools.execute', { sessionId, turnId: `t${Math.floor(i / 100)}`, toolCallId: `c${i}`,
        name: args[0], arguments: args[1] }).then((r) => {
        const res = r.response.result;
        if (!res || res.ok !== true) throw new Error(`pi-host ${args[0]}: ${JSON.stringify(r.response).slice(0, 300)}`);
        tag.set(kind, true);
      });
    }, o);
    results.push({ label: c.label, jvm: command.choice, ...figures });
  }

  const out = [`Resident memory (VmRSS), idle after the first answer and after ${o.calls} mixed calls, ${o.settleMs} ms settle`
    + ` (${new Date().toISOString()}, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')})`,
  `peer      idle ${mib(peerFigures.idle.rss)} (anon ${mib(peerFigures.idle.anon)})   after ${o.calls} calls ${mib(peerFigures.steady.rss)}`];
  for (const r of results) {
    out.push(`pi-host [${r.label}] idle ${mib(r.idle.rss)} (anon ${mib(r.idle.anon)}, file ${mib(r.idle.file)})   after ${o.calls} calls `
      + `${mib(r.steady.rss)} (at ${o.calls / 2}: ${mib(r.half.rss)}; ${r.bytesPerCall.toFixed(0)} bytes per call between them)`);
  }
  for (const r of results) {
    r.ratioIdle = r.idle.rss / peerFigures.idle.rss;
    r.ratioSteady = r.steady.rss / r.idle.rss;
    out.push(`goal idle <= ${IDLE_GOAL}x the peer [${r.label}]: ratio ${r.ratioIdle.toFixed(2)}  ${r.ratioIdle <= IDLE_GOAL ? 'MET' : 'MISSED'}`);
    out.push(`goal after ${o.calls} calls <= ${STEADY_GOAL}x its idle [${r.label}]: ratio ${r.ratioSteady.toFixed(2)}  `
      + `${r.ratioSteady <= STEADY_GOAL ? 'MET' : 'MISSED'}   (${r.jvm})`);
  }
  console.log(out.join('\n'));
  if (o.json) console.log(JSON.stringify({ date: new Date().toISOString(), load: loadavg(), calls: o.calls, peer: peerFigures, hosts: results }));
  clearTimeout(deadline);
  killAll();
}

/** Starts a server, runs setup, settles, reads idle RSS; runs calls, reads RSS half-way and at the end (settled). */
async function measure(name, cmd, args, setup, call, o) {
  const server = startServer(name, cmd, args, 60000);
  await setup(server);
  await sleep(o.settleMs);
  const idle = rss(server.child.pid);
  let half = null;
  for (let i = 0; i < o.calls; i++) {
    await call(server, i);
    if (i + 1 === o.calls / 2) {
      await sleep(o.settleMs);
      half = rss(server.child.pid);
    }
  }
  await sleep(o.settleMs);
  const steady = rss(server.child.pid);
  await server.stop();
  const bytesPerCall = half ? ((steady.rss - half.rss) * 1024 * 1024) / (o.calls / 2) : 0;
  console.error(`bench: ${name}: idle ${mib(idle.rss)}, after ${o.calls} calls ${mib(steady.rss)}`);
  return { idle, half: half ?? steady, steady, bytesPerCall };
}

main().catch((e) => {
  if (!isStopping()) console.error(`bench: ${e.stack || e}`);
  stopAll(1);
});
