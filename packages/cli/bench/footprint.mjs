// What installing @parl/cli brings, with and without its optional peer @parl/sim: the size of the
// production dependency closure (each package's files as installed, counted once), read from this
// workspace's node_modules. Usage: node bench/footprint.mjs (after pnpm install && pnpm build).
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cliDir = dirname(dirname(fileURLToPath(import.meta.url)));

/** Bytes of the files under dir (no node_modules: dependencies are counted as packages of their own). */
function bytesOf(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'test' || entry.name === 'src' || entry.name === 'bench') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesOf(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/** The production dependency closure of the package at dir (optional peers left out unless named in `extra`). */
function closure(dir, extra = []) {
  const seen = new Map();
  const visit = (pkgDir, names) => {
    for (const name of names) {
      let target;
      try {
        target = realpathSync(join(pkgDir, 'node_modules', name));
      } catch {
        const parent = pkgDir.slice(0, pkgDir.lastIndexOf(`${join('node_modules', name.split('/')[0])}`));
        target = realpathSync(join(parent || pkgDir, 'node_modules', name));
      }
      if (seen.has(target)) continue;
      const manifest = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8'));
      seen.set(target, { name, bytes: bytesOf(target) });
      const owner = target.includes(`${join('node_modules', name)}`) ? target.slice(0, target.lastIndexOf(join('node_modules', name))) : target;
      visit(owner === target ? target : owner, Object.keys(manifest.dependencies ?? {}));
    }
  };
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  visit(dir, [...Object.keys(manifest.dependencies ?? {}), ...extra]);
  return [...seen.values()];
}

const mb = (n) => (n / 1e6).toFixed(1);
const own = bytesOf(cliDir);
const alone = closure(cliDir);
const withSim = closure(cliDir, ['@parl/sim']);
const sum = (list) => list.reduce((a, p) => a + p.bytes, own);
const tf = withSim.filter((p) => p.name.startsWith('@tensorflow/')).reduce((a, p) => a + p.bytes, 0);
console.log(`@parl/cli alone:        ${mb(sum(alone))} MB in ${alone.length + 1} packages (TensorFlow.js: ${alone.some((p) => p.name.startsWith('@tensorflow/')) ? 'yes' : 'no'})`);
console.log(`@parl/cli + @parl/sim:  ${mb(sum(withSim))} MB in ${withSim.length + 1} packages (TensorFlow.js ${mb(tf)} MB)`);
