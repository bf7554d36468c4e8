// The JDK source tree the file-tool benchmarks search (extracted once from a JDK's src.zip into the cache
// folder, outside any measurement). Shared by bench/files.mjs and bench/grep-first.mjs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function findSrcZip(srcZip) {
  const cands = [];
  if (srcZip) cands.push(srcZip);
  if (process.env.JAVA_HOME) cands.push(join(process.env.JAVA_HOME, 'lib', 'src.zip'));
  cands.push('/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip');
  try {
    for (const d of readdirSync('/usr/lib/jvm').sort()) cands.push(join('/usr/lib/jvm', d, 'lib', 'src.zip'));
  } catch { /* none */ }
  for (const c of cands) { if (existsSync(c)) return realpathSync(c); } // existsSync follows links: a dangling one is skipped
  throw new Error(`no JDK src.zip found (tried ${cands.join(', ')}); pass --src-zip, or apt-get install openjdk-17-source`);
}

/** {zip, tree, files}: the extracted tree below `cache` (extracted on the first use) and its file count. */
export function prepareTree(cache, srcZip) {
  const zip = findSrcZip(srcZip);
  const key = zip.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  const tree = join(cache, `jdk-src-${key}`);
  if (!existsSync(join(tree, '.extracted'))) {
    console.error(`bench: extracting ${zip} into ${tree} (once, not measured) ...`);
    rmSync(tree, { recursive: true, force: true });
    mkdirSync(tree, { recursive: true });
    execFileSync('unzip', ['-q', '-o', zip, '-d', tree], { stdio: ['ignore', 'ignore', 'inherit'] });
    writeFileSync(join(tree, '.extracted'), `${zip}\n`); // hidden: skipped by both engines and rg
  }
  const files = Number(execFileSync('rg', ['--files', '--hidden', '-g', '!.extracted', tree],
    { encoding: 'utf8', maxBuffer: 1 << 28 }).split('\n').filter(Boolean).length);
  return { zip, tree: realpathSync(tree), files };
}
