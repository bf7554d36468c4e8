// The floor of bench/mcp-front.sh (--floor): pi.host.bench.McpFloor, the MCP Java SDK's bare stdio server
// with one tool that reads the file (the bundle set's own SDK, Jackson and Reactor jars, no OSGi), spawned
// with the java and JVM options pi-host gets, so that pi-host's figure can be read against what the SDK
// alone costs. Each floor side: SHAPE (pool: the front's hand-off to its own pool, sync: the SDK's sync
// server, immediate: the tool on the SDK's reader thread) with a start-up archive of its own made the way
// pi-host has one (Java 25: an AOT cache, Java 17: AppCDS; trained by one start of that floor), or
// SHAPE:none without one. The jar and the archives live in a temporary directory, made before any
// measurement.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = dirname(fileURLToPath(import.meta.url));
const SHAPES = ['pool', 'sync', 'immediate'];

/** "pool,immediate:none" -> [{shape, archive, label}]; throws on an unknown shape. */
export function parseFloors(list) {
  return list.split(',').filter(Boolean).map((item) => {
    const [shape, flag] = item.split(':');
    if (!SHAPES.includes(shape) || (flag !== undefined && flag !== 'none')) {
      throw new Error(`--floor: SHAPE or SHAPE:none, SHAPE one of ${SHAPES.join(', ')}; not ${item}`);
    }
    return { shape, archive: flag === undefined, label: `floor ${shape}${flag === undefined ? '' : ' (no archive)'}` };
  });
}

/** The start-up archive pi-host's command line asks for: 'aot', 'cds' or 'none'. */
export function archiveMode(hostArgs) {
  if (hostArgs.some((a) => a.startsWith('-XX:AOTCache='))) return 'aot';
  if (hostArgs.some((a) => a.startsWith('-XX:SharedArchiveFile='))) return 'cds';
  return 'none';
}

/** pi-host's JVM options without its archive, its choice line, the launcher and what follows. */
export function floorJvmOptions(hostArgs) {
  const jar = hostArgs.indexOf('-jar');
  return (jar < 0 ? hostArgs : hostArgs.slice(0, jar)).filter((a) => !a.startsWith('-XX:AOTCache=')
    && !a.startsWith('-XX:SharedArchiveFile=') && !a.startsWith('-Dpi.host.jvm.choice='));
}

/**
 * Makes the floor's jar and the archives the floors need; resolves to
 * {sides: [{label, shape, cmd, args, archive}], cleanup()}. An archive is trained by `train` calls of a raw
 * JSON-RPC line client (the same SDK server paths), the process ending at end of stdin.
 */
export async function prepareFloors(floors, { java, jvmOptions, mode, bundleDir, root, train, log }) {
  const classes = join(benchDir, 'target', 'classes', 'pi', 'host', 'bench');
  const own = existsSync(classes) ? readdirSync(classes).filter((f) => /^McpFloor(\$.*)?\.class$/.test(f)) : [];
  if (!own.includes('McpFloor.class')) {
    throw new Error('bench/target/classes has no McpFloor: mvn -B -q -pl bench -am package -DskipTests (bench/mcp-front.sh does)');
  }
  const dir = mkdtempSync(join(tmpdir(), 'pi-mcp-floor-'));
  const jar = join(dir, 'mcp-floor.jar');
  // a jar, not the classes folder: neither archive takes classes from a folder on the class path
  execFileSync('jar', ['cf', jar, ...own.flatMap((f) => ['-C', join(benchDir, 'target', 'classes'), `pi/host/bench/${f}`])]);
  const cp = [jar, ...readdirSync(bundleDir).filter((f) => f.endsWith('.jar')).sort().map((f) => join(bundleDir, f))].join(':');
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  const sides = [];
  try {
    for (const f of floors) sides.push(await floorSide(f, { java, jvmOptions, mode, cp, dir, root, train, log }));
  } catch (e) {
    cleanup();
    throw e;
  }
  return { sides, cleanup };
}

/** One floor's command line, its archive trained first when it gets one. */
async function floorSide(f, { java, jvmOptions, mode, cp, dir, root, train, log }) {
  const base = [...jvmOptions, '-cp', cp, 'pi.host.bench.McpFloor', f.shape, root];
  if (!f.archive || mode === 'none') return { label: f.label, shape: f.shape, cmd: java, args: base, archive: 'none' };
  const file = join(dir, `${f.shape}.${mode === 'aot' ? 'aot' : 'jsa'}`);
  const record = mode === 'aot' ? `-XX:AOTCacheOutput=${file}` : `-XX:ArchiveClassesAtExit=${file}`;
  log(`bench: training the ${f.label}'s ${mode === 'aot' ? 'AOT cache' : 'AppCDS archive'} (${train} calls) ...`);
  await trainOnce(java, [record, ...base], train);
  if (!existsSync(file)) throw new Error(`the ${f.label}'s training start wrote no ${file}`);
  const use = mode === 'aot' ? `-XX:AOTCache=${file}` : `-XX:SharedArchiveFile=${file}`;
  return { label: f.label, shape: f.shape, cmd: java, args: [use, ...base], archive: file };
}

/** One start of a floor: initialize, `calls` reads one at a time, end of stdin, its exit (archive written). */
function trainOnce(cmd, args, calls) {
  return new Promise((resolveRun, rejectRun) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const killer = setTimeout(() => { child.kill('SIGKILL'); rejectRun(new Error('floor training: no end in 300 s')); }, 300000);
    let err = ''; // the JVM's archive messages; shown only when the training fails
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => { err = (err + chunk).slice(-4000); });
    let buf = '';
    let next = 0;
    const send = (msg) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...msg })}\n`);
    const call = (id) => send({ id, method: 'tools/call', params: { name: 'read', arguments: { path: 'small.txt' } } });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buf += chunk;
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const msg = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (msg.id !== next) continue;
        if (msg.error || msg.result?.isError) { child.kill('SIGKILL'); rejectRun(new Error(`floor training: ${JSON.stringify(msg)}`)); return; }
        if (next === 0) send({ method: 'notifications/initialized' });
        if (next++ < calls) call(next); else child.stdin.end();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(killer);
      if (code === 0) resolveRun(); else rejectRun(new Error(`floor training start exited with ${code}:\n${err}`));
    });
    send({ id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {},
      clientInfo: { name: 'pi-host-bench-train', version: '1' } } });
  });
}
