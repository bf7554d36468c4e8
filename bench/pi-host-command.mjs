// The command bin/pi-host runs (its java, JVM options and start-up archive, bin/jvm.sh), for the harnesses
// that spawn the host without bash in between: PI_HOST_PRINT_COMMAND=1 makes bin/pi-host print it, one
// argument per line, after preparing what it needs (the build, the archive), outside any measurement.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * {cmd, args, choice} of `bin/pi-host ARGS...`; env: PI_HOST_JAVA (a java), PI_HOST_ARCHIVE (none),
 * PI_HOST_JAVA_OPTS (more JVM options) as bin/pi-host reads them.
 */
export function piHostCommand(args, env = {}) {
  const out = execFileSync(join(repoDir, 'bin', 'pi-host'), args, {
    encoding: 'utf8', env: { ...process.env, ...env, PI_HOST_PRINT_COMMAND: '1' }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = out.split('\n').filter((l) => l.length > 0);
  const choice = lines.find((l) => l.startsWith('-Dpi.host.jvm.choice='))?.slice('-Dpi.host.jvm.choice='.length);
  return { cmd: lines[0], args: lines.slice(1), choice };
}

/** The feature release of a java executable (its JDK's release file), 0 when unknown. */
export function javaFeature(java) {
  try {
    const home = dirname(dirname(realpathSync(java)));
    const m = /JAVA_VERSION="(\d+)/.exec(readFileSync(join(home, 'release'), 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** The java on PATH (what a user without another JDK has), or null. */
export function javaOnPath() {
  for (const dir of (process.env.PATH || '').split(':')) {
    const p = join(dir || '.', 'java');
    if (existsSync(p)) return p;
  }
  return null;
}

/**
 * The JVMs to measure pi-host on: bin/pi-host's own choice (the newest java, with its archive), and the
 * java on PATH with its archive when that is another release. Each: {label, env}.
 */
export function jvmChoices() {
  const best = piHostCommand(['serve', '--stdio']);
  const choices = [{ label: `java ${javaFeature(best.cmd)}`, env: {}, choice: best.choice }];
  const path = javaOnPath();
  if (path && javaFeature(path) !== javaFeature(best.cmd)) {
    const env = { PI_HOST_JAVA: path };
    choices.push({ label: `java ${javaFeature(path)}`, env, choice: piHostCommand(['serve', '--stdio'], env).choice });
  }
  return choices;
}
