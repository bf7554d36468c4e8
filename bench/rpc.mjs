#!/usr/bin/env node
// RPC round-trip benchmark (a benchmark, not a timed test): the time from writing one request line
// to a live server's stdin until its response line is read from stdout, for
//   (a) pi-host serve --stdio: `tools.execute` of the builtin Read on a small file of a session
//       whose projectRoot holds that file (the whole pipeline, audit row included);
//   (b) @modelcontextprotocol/server-filesystem: `tools/call` of `read_text_file` on the same file
//       (after its initialize handshake).
// Both servers are started once and kept running; the calls are sequential (one in flight), in
// alternating blocks whose order flips every round, after a warm-up. See bench/README.md.
//
// Every child is killed at exit (normal, error, signal or deadline); the whole run has a deadline.

import { filesystemPeer, isStopping, killAll, ns, startServer, stopAll, cpuMsOf, stats } from './jsonrpc.mjs';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launcherJvmOptions } from './jvm-options.mjs';
import { jvmChoices, piHostCommand } from './pi-host-command.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const repoDir = resolve(benchDir, '..');

const USAGE = `usage: bench/rpc.sh [options]
  -n, --calls N         measured calls per side (default 2000)
  -w, --warmup N        unmeasured calls per side first (default 30000: until the JVM's JIT is done)
  -b, --block N         calls per block; the sides alternate block by block (default 100)
      --cold            the first calls after a fresh start instead (issue 19): for each JVM bin/pi-host
                        could pick (as it starts them), pi-host and the peer spawned fresh -r times, then
                        -n calls per server (default 2000) alternating call by call; p50 of the first 200
                        (goal <= 1.0x that rotation's peer) and of calls 1-n (goal <= 0.7x)
      --together        with --cold: all JVMs' hosts and one peer in one rotation, as before session 17
                        (each host's JIT then competes with the others' calls; for comparing old figures)
  -r, --reps N          fresh starts for --cold (default 3)
      --floor           also measure each server's cheapest request in the same rotation
                        (pi-host: tools.abort of no call; peer: MCP ping): the stdio + JSON-RPC floor
      --json            also print the result as one JSON object (last line of stdout)
      --java CMD        java executable (default: $JAVA_HOME/bin/java if set, else java on PATH)
      --java-opts STR   extra JVM options for pi-host, split on spaces (default: $PI_HOST_JAVA_OPTS)
      --launcher JAR    another pi.host.launcher.jar (its bundle set is the pi-host/ dir beside it;
                        default: bundles/target/pi.host.launcher.jar of this checkout)
      --timeout S       limit for one response, seconds (default 30)
      --deadline S      limit for the whole run, seconds (default 300)
  -h, --help            this text`;

function parseArgs(argv) {
  const o = {
    calls: 2000, warmup: 30000, block: 100, json: false, floor: false,
    java: process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java',
    javaOpts: (process.env.PI_HOST_JAVA_OPTS || '').split(/\s+/).filter(Boolean),
    launcher: join(repoDir, 'bundles', 'target', 'pi.host.launcher.jar'),
    timeoutS: 30, deadlineS: 300, cold: false, together: false, reps: 3, callsGiven: false,
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
      case '-n': case '--calls': o.calls = Math.floor(num(need(i), a)); o.callsGiven = true; i++; break;
      case '--cold': o.cold = true; break;
      case '--together': o.together = true; break;
      case '-r': case '--reps': o.reps = Math.floor(num(need(i), a)); i++; break;
      case '-w': case '--warmup': o.warmup = Math.floor(num(need(i), a)); i++; break;
      case '-b': case '--block': o.block = Math.floor(num(need(i), a)); i++; break;
      case '--json': o.json = true; break;
      case '--floor': o.floor = true; break;
      case '--java': o.java = need(i); o.javaGiven = true; i++; break;
      case '--java-opts': o.javaOpts = need(i).split(/\s+/).filter(Boolean); i++; break;
      case '--launcher': o.launcher = resolve(need(i)); o.launcherGiven = true; i++; break;
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

// ---- main -------------------------------------------------------------------------------------

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (o.cold) {
    await cold(o);
    return;
  }
  const deadline = setTimeout(() => {
    console.error(`bench: deadline of ${o.deadlineS} s reached, stopping`);
    stopAll(3);
  }, o.deadlineS * 1000);
  const timeoutMs = o.timeoutS * 1000;

  const launcherJar = o.launcher;
  if (!existsSync(launcherJar) || !existsSync(join(dirname(launcherJar), 'pi-host', 'bundles.list'))) {
    fail(`no launcher at ${launcherJar}: build first (mvn -B -q -DskipTests package), or use bench/rpc.sh`);
  }
  const peerPkgDir = join(benchDir, 'node_modules', '@modelcontextprotocol', 'server-filesystem');
  if (!existsSync(join(peerPkgDir, 'package.json'))) {
    fail('the MCP filesystem server is not installed: npm ci --prefix bench (or use bench/rpc.sh)');
  }
  const peerPkg = JSON.parse(readFileSync(join(peerPkgDir, 'package.json'), 'utf8'));
  const peerMain = join(peerPkgDir, peerPkg.bin['mcp-server-filesystem']);

  const scratch = mkdtempSync(join(tmpdir(), 'pi-host-rpc-bench-'));
  process.on('exit', () => { try { rmSync(scratch, { recursive: true, force: true }); } catch { /* best effort */ } });
  const dataDir = join(scratch, 'data');
  const root = join(scratch, 'project'); // pi-host's projectRoot and the peer's allowed directory
  mkdirSync(root, { recursive: true });
  const rootReal = realpathSync(root);
  // the small file both sides read: 10 short lines, 521 bytes
  const content = Array.from({ length: 10 }, (_, i) => `line ${i + 1}: the quick brown fox jumps over the lazy dog`)
    .join('\n') + '\n';
  const fileName = 'small.txt';
  writeFileSync(join(root, fileName), content);

  // as bin/pi-host starts it (its java, options and start-up archive) unless another build or java is asked for
  let piJava = o.java;
  let piArgs = [...launcherJvmOptions(launcherJar), ...o.javaOpts, '-jar', launcherJar, 'serve', '--stdio', '--data-dir', dataDir];
  if (!o.launcherGiven && !o.javaGiven) {
    const c = piHostCommand(['serve', '--stdio', '--data-dir', dataDir], o.javaOpts.length ? { PI_HOST_JAVA_OPTS: o.javaOpts.join(' ') } : {});
    piJava = c.cmd;
    piArgs = c.args;
  }
  const peerArgs = [peerMain, rootReal];
  console.error(`bench: pi-host: ${piJava} ${piArgs.join(' ')}`);
  console.error(`bench: peer:    ${process.execPath} ${peerArgs.join(' ')}`);

  // pi-host: start, create the session
  const pi = startServer('pi-host', piJava, piArgs, timeoutMs);
  const info = (await pi.call('host.info')).response;
  if (info.error) throw new Error(`pi-host host.info: ${JSON.stringify(info.error)}`);
  const created = (await pi.call('session.create', { projectRoot: rootReal })).response;
  if (created.error) throw new Error(`pi-host session.create: ${JSON.stringify(created.error)}`);
  const sessionId = created.result.sessionId;

  // peer: start, handshake as a real client does
  const peer = startServer('peer', process.execPath, peerArgs, timeoutMs);
  const init = (await peer.call('initialize', {
    protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pi-host-bench', version: '0' },
  })).response;
  if (init.error) throw new Error(`peer initialize: ${JSON.stringify(init.error)}`);
  peer.notify('notifications/initialized', {});

  let callNo = 0;
  const sides = [
    {
      key: 'piHost', label: 'pi-host  tools.execute Read', server: pi,
      what: `tools.execute {name: "Read", arguments: {path: "${fileName}"}} in a session rooted at the file's directory`,
      once: async () => {
        callNo++;
        const r = await pi.call('tools.execute', {
          sessionId, turnId: 't1', toolCallId: `c${callNo}`, name: 'Read', arguments: { path: fileName },
        });
        const res = r.response.result;
        if (!res || res.ok !== true || !res.content?.[0]?.text?.includes('line 10: the quick')) {
          throw new Error(`pi-host Read failed: ${JSON.stringify(r.response).slice(0, 600)}`);
        }
        return r.ns;
      },
    },
    {
      key: 'peer', label: 'peer     tools/call read_text_file', server: peer,
      what: `tools/call {name: "read_text_file", arguments: {path: "<root>/${fileName}"}}`,
      once: async () => {
        const r = await peer.call('tools/call', { name: 'read_text_file', arguments: { path: join(rootReal, fileName) } });
        const res = r.response.result;
        if (!res || res.isError || res.content?.[0]?.text !== content) {
          throw new Error(`peer read_text_file failed: ${JSON.stringify(r.response).slice(0, 600)}`);
        }
        return r.ns;
      },
    },
  ];

  if (o.floor) {
    sides.push({
      key: 'piHostFloor', label: 'pi-host  tools.abort (floor)', server: pi,
      what: 'tools.abort of a call id that does not exist (no tool runs, nothing is audited)',
      once: async () => {
        const r = await pi.call('tools.abort', { sessionId, toolCallId: 'none' });
        if (r.response.result?.aborted !== false) throw new Error(`pi-host tools.abort: ${JSON.stringify(r.response)}`);
        return r.ns;
      },
    });
    sides.push({
      key: 'peerFloor', label: 'peer     ping (floor)', server: peer,
      what: 'MCP ping',
      once: async () => {
        const r = await peer.call('ping');
        if (r.response.error) throw new Error(`peer ping: ${JSON.stringify(r.response)}`);
        return r.ns;
      },
    });
  }

  // warm-up: alternate blocks too, not measured (JIT on both sides, page cache)
  for (let done = 0; done < o.warmup; done += o.block) {
    for (const s of sides) {
      for (let i = 0; i < Math.min(o.block, o.warmup - done); i++) await s.once();
    }
  }
  console.error(`bench: warm-up done (${o.warmup} calls per side)`);

  // measured: blocks of o.block sequential calls, the sides alternating, the order flipping each round
  const samples = new Map(sides.map((s) => [s.key, []]));
  const cpu = new Map(sides.map((s) => [s.key, 0]));
  const wall = new Map(sides.map((s) => [s.key, 0n]));
  for (let round = 0, done = 0; done < o.calls; round++, done += o.block) {
    const order = sides.map((_, j) => sides[(round + j) % sides.length]); // rotates: A B, B A, ... (A B C D, B C D A, ...)
    const n = Math.min(o.block, o.calls - done);
    for (const s of order) {
      const c0 = cpuMsOf(s.server.child.pid);
      const w0 = ns();
      for (let i = 0; i < n; i++) samples.get(s.key).push(await s.once());
      wall.set(s.key, wall.get(s.key) + (ns() - w0));
      const c1 = cpuMsOf(s.server.child.pid);
      if (c0 !== null && c1 !== null) cpu.set(s.key, cpu.get(s.key) + (c1 - c0));
    }
    if ((round + 1) % 5 === 0) process.stderr.write(`bench: ${Math.min(done + n, o.calls)}/${o.calls}\n`);
  }

  const st = new Map(sides.map((s) => [s.key, stats(samples.get(s.key))]));
  const a = st.get('piHost');
  const b = st.get('peer');
  const ratio = Math.round((b.p50 / a.p50) * 100) / 100;
  const cpuPerCall = (k) => Math.round((cpu.get(k) * 1000 / o.calls) * 10) / 10; // µs of CPU per call
  const result = {
    date: new Date().toISOString(),
    machine: { nproc: availableParallelism(), platform: `${process.platform} ${process.arch}`, node: process.version },
    calls: o.calls, warmup: o.warmup, block: o.block, fileBytes: Buffer.byteLength(content),
    piHost: { what: sides[0].what, command: `${piJava} ${piArgs.join(' ')}`, hostVersion: info.result?.hostVersion,
      ...a, cpuUsPerCall: cpuPerCall('piHost') },
    peer: { what: sides[1].what, package: `${peerPkg.name}@${peerPkg.version}`, server: init.result?.serverInfo,
      command: `${process.execPath} ${peerArgs.join(' ')}`, ...b, cpuUsPerCall: cpuPerCall('peer') },
    ratioPeerOverPiHostP50: ratio,
  };

  const line = (label, s) => `${label.padEnd(34)} p50 ${s.p50.toFixed(1).padStart(8)}   p90 ${s.p90.toFixed(1).padStart(8)}   p99 ${s.p99.toFixed(1).padStart(8)}   mean ${s.mean.toFixed(1).padStart(8)}   (min ${s.min.toFixed(1)}, max ${s.max.toFixed(1)}, n=${s.n})`;
  console.log([
    `RPC round trip, ${o.calls} sequential calls per side in alternating blocks of ${o.block}, after ${o.warmup} warm-up (${result.date})`,
    `file: ${fileName}, ${result.fileBytes} bytes; times in µs from writing the request line to reading the response line`,
    line(sides[0].label, a),
    line(sides[1].label, b),
    `ratio peer/pi-host at p50          ${ratio.toFixed(2)}   (goal >= 3: ${ratio >= 3 ? 'met' : 'missed'})`,
    `goal warm (after ${o.warmup}) <= 0.33x the peer: ratio pi-host/peer ${(a.p50 / b.p50).toFixed(2)}  ${a.p50 / b.p50 <= 0.33 ? 'MET' : 'MISSED'}`
      + `   (load average ${loadavg().map((x) => x.toFixed(2)).join(' ')})`,
    `server CPU per call (user+sys, all threads, /proc): pi-host ${result.piHost.cpuUsPerCall} µs, peer ${result.peer.cpuUsPerCall} µs`,
  ].join('\n'));
  if (o.floor) {
    result.floor = { piHost: { what: sides[2].what, ...st.get('piHostFloor'), cpuUsPerCall: cpuPerCall('piHostFloor') },
      peer: { what: sides[3].what, ...st.get('peerFloor'), cpuUsPerCall: cpuPerCall('peerFloor') } };
    console.log([line(sides[2].label, st.get('piHostFloor')), line(sides[3].label, st.get('peerFloor'))].join('\n'));
  }
  if (o.json) console.log(JSON.stringify(result));

  clearTimeout(deadline);
  await Promise.all([pi.stop(), peer.stop()]);
  killAll();
}

// ---- --cold: the first calls of a fresh start ----------------------------------------------------------

const COLD_FIRST = 200;
const COLD_FIRST_GOAL = 1.0;
const COLD_ALL_GOAL = 0.7;

function p50(xs) {
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(0.5 * s.length) - 1))] / 1000;
}

/**
 * One fresh start of each host in {@code group} and of a peer, then {@code calls} calls per server alternating
 * call by call; every server stopped after. Returns each side's round trips (ns) by key.
 */
async function coldRotation(group, peerLabel, { calls, timeoutMs, rootReal, peerMain, content }) {
  const sides = [];
  for (const h of group) {
    const server = startServer(`pi-host [${h.label}]`, h.command.cmd, h.command.args, timeoutMs);
    const created = (await server.call('session.create', { projectRoot: rootReal })).response;
    if (created.error) throw new Error(`pi-host session.create: ${JSON.stringify(created.error)}`);
    let n = 0;
    const sessionId = created.result.sessionId;
    sides.push({ key: h.label, server, once: async () => {
      n++;
      const r = await server.call('tools.execute', { sessionId, turnId: 't1', toolCallId: `c${n}`, name: 'Read',
        arguments: { path: 'small.txt' } });
      const res = r.response.result;
      if (!res || res.ok !== true || !res.content?.[0]?.text?.includes('line 10: the quick')) {
        throw new Error(`pi-host Read failed: ${JSON.stringify(r.response).slice(0, 600)}`);
      }
      return r.ns;
    } });
  }
  const peer = startServer('peer', process.execPath, [peerMain, rootReal], timeoutMs);
  const init = (await peer.call('initialize', { protocolVersion: '2025-06-18', capabilities: {},
    clientInfo: { name: 'pi-host-bench', version: '0' } })).response;
  if (init.error) throw new Error(`peer initialize: ${JSON.stringify(init.error)}`);
  peer.notify('notifications/initialized', {});
  sides.push({ key: peerLabel, server: peer, once: async () => {
    const r = await peer.call('tools/call', { name: 'read_text_file', arguments: { path: join(rootReal, 'small.txt') } });
    if (r.response.result?.content?.[0]?.text !== content) throw new Error(`peer read failed: ${JSON.stringify(r.response).slice(0, 600)}`);
    return r.ns;
  } });
  const thisRep = new Map(sides.map((s) => [s.key, []]));
  // call by call, the order rotating, so that no server runs while another is being called
  for (let i = 0; i < calls; i++) {
    for (let j = 0; j < sides.length; j++) {
      const s = sides[(i + j) % sides.length];
      thisRep.get(s.key).push(await s.once());
    }
  }
  await Promise.all(sides.map((s) => s.server.stop()));
  return thisRep;
}

async function cold(o) {
  const calls = o.callsGiven ? o.calls : 2000;
  const deadline = setTimeout(() => {
    console.error(`bench: deadline of ${o.deadlineS} s reached, stopping`);
    stopAll(3);
  }, Math.max(o.deadlineS, 900) * 1000);
  const timeoutMs = o.timeoutS * 1000;
  const fsPeer = filesystemPeer(benchDir);
  if (!fsPeer) fail('the MCP filesystem server is not installed: npm ci --prefix bench');
  const peerMain = fsPeer.main;
  const scratch = mkdtempSync(join(tmpdir(), 'pi-host-rpc-cold-'));
  process.on('exit', () => { try { rmSync(scratch, { recursive: true, force: true }); } catch { /* best effort */ } });
  const root = join(scratch, 'project');
  mkdirSync(root, { recursive: true });
  const rootReal = realpathSync(root);
  const content = Array.from({ length: 10 }, (_, i) => `line ${i + 1}: the quick brown fox jumps over the lazy dog`)
    .join('\n') + '\n';
  writeFileSync(join(root, 'small.txt'), content);
  const javaEnv = o.javaOpts.length ? { PI_HOST_JAVA_OPTS: o.javaOpts.join(' ') } : {};
  const choices = jvmChoices();
  const hosts = choices.map((c) => {
    const dataDir = join(scratch, `data-${c.label.replace(/\W+/g, '')}`);
    return { ...c, dataDir, command: piHostCommand(['serve', '--stdio', '--data-dir', dataDir], { ...c.env, ...javaEnv }) };
  });
  for (const h of hosts) console.error(`bench: pi-host [${h.label}]: ${h.command.cmd} ${h.command.args.join(' ')}`);
  // one start each fills the bundle cache (an installed host has it); not measured
  for (const h of hosts) {
    const s = startServer('pi-host', h.command.cmd, h.command.args, timeoutMs);
    await s.call('host.info');
    await s.stop();
  }
  // A user's machine runs one host: each JVM's host is measured in a rotation of its own with a peer started
  // beside it, so no other host's start-up JIT competes with its first calls (two JVMs compiling at once on
  // 2 cores slowed every server in the rotation, the peer too; docs/performance.md, "How we measure").
  // --together keeps the one rotation of every host and one peer that earlier figures were read from.
  const rotations = o.together ? [hosts] : hosts.map((h) => [h]);
  const peerKey = (group) => (o.together ? 'peer' : `peer ${group[0].label}`);
  const samples = new Map();
  const firsts = new Map();
  for (const group of rotations) {
    for (const k of [...group.map((h) => h.label), peerKey(group)]) {
      samples.set(k, []);
      firsts.set(k, []);
    }
  }
  for (let rep = 0; rep < o.reps; rep++) {
    for (const group of rotations) {
      const thisRep = await coldRotation(group, peerKey(group), { calls, timeoutMs, rootReal, peerMain, content });
      for (const [k, xs] of thisRep) {
        samples.get(k).push(...xs);
        firsts.get(k).push(...xs.slice(0, COLD_FIRST));
      }
      console.error(`bench: rep ${rep + 1}/${o.reps}: p50 first ${COLD_FIRST} / 1-${calls}: `
        + [...thisRep].map(([k, xs]) => `${k} ${p50(xs.slice(0, COLD_FIRST)).toFixed(0)} / ${p50(xs).toFixed(0)} µs`).join(', '));
    }
  }
  const result = { date: new Date().toISOString(), load: loadavg(), reps: o.reps, calls, together: o.together,
    hosts: rotations.flatMap((group) => {
      const pk = peerKey(group);
      const peerFirst = p50(firsts.get(pk));
      const peerAll = p50(samples.get(pk));
      return group.map((h) => {
        const first = p50(firsts.get(h.label));
        const all = p50(samples.get(h.label));
        return { label: h.label, jvm: h.command.choice, first, all, peer: { first: peerFirst, all: peerAll },
          ratioFirst: first / peerFirst, ratioAll: all / peerAll,
          metFirst: first / peerFirst <= COLD_FIRST_GOAL, metAll: all / peerAll <= COLD_ALL_GOAL };
      });
    }) };
  const row = (label, first, all) => `${label.padEnd(36)} p50 first ${COLD_FIRST} ${first.toFixed(1).padStart(8)} µs   p50 calls 1-${calls} ${all.toFixed(1).padStart(8)} µs`;
  const shape = o.together ? 'every host and the peer in one rotation' : 'each JVM\'s host in a rotation of its own with a peer';
  const out = [`RPC round trip from a fresh start (small Read), ${o.reps} fresh starts, ${calls} calls per server alternating call by call, ${shape} (${result.date})`,
    `load average at the end: ${result.load.map((x) => x.toFixed(2)).join(' ')}`];
  for (const h of result.hosts) {
    out.push(row(`pi-host tools.execute Read [${h.label}]`, h.first, h.all));
    if (!o.together) out.push(row(`peer    read_text_file [beside ${h.label}]`, h.peer.first, h.peer.all));
  }
  if (o.together) out.push(row('peer    tools/call read_text_file', result.hosts[0].peer.first, result.hosts[0].peer.all));
  for (const h of result.hosts) {
    out.push(`goal first ${COLD_FIRST} <= ${COLD_FIRST_GOAL.toFixed(1)}x the peer [${h.label}]: ratio ${h.ratioFirst.toFixed(2)}  ${h.metFirst ? 'MET' : 'MISSED'}`);
    out.push(`goal calls 1-${calls} <= ${COLD_ALL_GOAL.toFixed(1)}x the peer [${h.label}]: ratio ${h.ratioAll.toFixed(2)}  ${h.metAll ? 'MET' : 'MISSED'}   (${h.jvm})`);
  }
  console.log(out.join('\n'));
  if (o.json) console.log(JSON.stringify(result));
  clearTimeout(deadline);
  killAll();
}

main().catch((e) => {
  if (!isStopping()) console.error(`bench: ${e.stack || e}`);
  stopAll(1);
});
