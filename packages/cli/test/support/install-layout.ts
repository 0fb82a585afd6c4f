/**
 * `@parl/cli` laid out as npm would lay out `npm install @parl/cli [more…]`, built from this
 * checkout: the cli copied (so that it resolves its own dependencies there) and its dependencies,
 * plus the optional packages asked for, linked — and nothing else, so an optional peer left out
 * is really missing.
 */
import { cpSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../..', import.meta.url));

/** Lay out `root/node_modules` with @parl/cli, its dependencies and `extra` (e.g. `@parl/sim`); returns the path of its bin. */
export function installCli(root: string, extra: readonly string[] = []): string {
  const modules = join(root, 'node_modules');
  const cliDir = join(modules, '@parl', 'cli');
  mkdirSync(cliDir, { recursive: true });
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(CLI, part), join(cliDir, part), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(CLI, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const linked = new Set<string>();
  const link = (name: string, from: string): void => {
    if (linked.has(name)) return;
    linked.add(name);
    const target = realpathSync(join(from, 'node_modules', name));
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(target, join(modules, name), 'dir');
    const deps = (JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
    for (const dep of Object.keys(deps)) link(dep, target.includes(`${join('node_modules', name)}`) ? target.slice(0, target.lastIndexOf(join('node_modules', name))) : target);
  };
  for (const dep of [...Object.keys(manifest.dependencies), ...extra]) link(dep, CLI);
  return join(cliDir, 'bin', 'parl.js');
}
