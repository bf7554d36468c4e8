// The JVM options a launcher's assembly asks for (pi-host/jvm.options beside the jar, passed as
// java @file, as bin/pi-host does): without them a current launcher refuses to serve. An older
// launcher, measured as a reference, has no such file and gets nothing.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function launcherJvmOptions(launcherJar) {
  const file = join(dirname(launcherJar), 'pi-host', 'jvm.options');
  return existsSync(file) ? [`@${file}`] : [];
}
