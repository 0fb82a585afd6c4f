import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Run a command, returning its status and output; never throws on a non-zero exit. */
export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): SpawnSyncReturns<string> {
  return spawnSync(command, [...args], { cwd, encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 });
}

/** Describe a finished command for an assertion message. */
export function describeRun(what: string, result: SpawnSyncReturns<string>): string {
  return `${what} exited ${result.status}${result.error ? ` (${result.error.message})` : ''}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}

/**
 * The pnpm to pack with: the one running this script when there is one (`npm_execpath`, set by
 * `pnpm test` and turbo), else `pnpm` on the PATH.
 */
export function pnpmCommand(env: NodeJS.ProcessEnv = process.env): { readonly command: string; readonly prefix: readonly string[] } {
  const execPath = env.npm_execpath;
  if (execPath !== undefined && /pnpm/.test(execPath)) {
    return /\.(c|m)?js$/.test(execPath) ? { command: process.execPath, prefix: [execPath] } : { command: execPath, prefix: [] };
  }
  return { command: 'pnpm', prefix: [] };
}

/** `pnpm pack` a workspace package into `destination`; returns the tarball's path. */
export function packPackage(packageDir: string, destination: string): string {
  const before = new Set(readdirSync(destination));
  const pnpm = pnpmCommand();
  const result = run(pnpm.command, [...pnpm.prefix, 'pack', '--pack-destination', destination], packageDir);
  if (result.status !== 0) throw new Error(describeRun(`pnpm pack in ${packageDir}`, result));
  const created = readdirSync(destination).filter((f) => f.endsWith('.tgz') && !before.has(f));
  if (created.length !== 1) throw new Error(`pnpm pack in ${packageDir} made ${created.length} tarballs: ${created.join(', ')}`);
  return join(destination, created[0] as string);
}

/** The paths inside a tarball, without npm's leading `package/`. */
export function tarballEntries(tarball: string): string[] {
  const result = run('tar', ['-tzf', tarball], process.cwd());
  if (result.status !== 0) throw new Error(describeRun(`tar -tzf ${tarball}`, result));
  return result.stdout
    .split('\n')
    .filter((line) => line !== '' && !line.endsWith('/'))
    .map((line) => line.replace(/^package\//, ''));
}

/**
 * The files a published @parl package may hold: `dist/`, `README.md`, `LICENSE`,
 * `CHANGELOG.md` and `package.json`, and for `@parl/cli` its committed bin, `bin/parl.js`.
 * Returns the entries that are not allowed.
 */
export function unexpectedEntries(entries: readonly string[], packageName = ''): string[] {
  // the cli's committed bin; sim's names/, options/, queue/ and runs/ package.json, which serve `@parl/sim/names`,
  // `@parl/sim/options`, `@parl/sim/queue` and `@parl/sim/runs` under node10 resolution; serve's and swarm's options/
  // package.json likewise
  const extra =
    packageName === '@parl/cli'
      ? ['bin/parl.js']
      : packageName === '@parl/sim'
        ? ['names/package.json', 'options/package.json', 'queue/package.json', 'runs/package.json']
        : packageName === '@parl/serve'
          ? ['options/package.json']
          : [];
  return entries.filter((entry) => !(entry.startsWith('dist/') || ['README.md', 'LICENSE', 'CHANGELOG.md', 'package.json', ...extra].includes(entry)));
}

/**
 * Install tarballs together into `appDir`, an empty ESM project, with npm: the @parl packages
 * come from the tarballs, their third-party dependencies from the registry (or npm's cache).
 */
export function installTarballs(appDir: string, tarballs: readonly string[]): SpawnSyncReturns<string> {
  writeFileSync(join(appDir, 'package.json'), `${JSON.stringify({ name: 'parl-packaging-check', private: true, type: 'module' }, null, 2)}\n`);
  return run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--prefer-offline', '--loglevel=error', ...tarballs], appDir, outsideWorkspaceEnv());
}

/**
 * The environment without the `npm_*` / `pnpm_*` variables a pnpm script sets, so that a user's
 * plain `npm` or `node` in an empty folder is what runs, not the workspace's settings.
 */
export function outsideWorkspaceEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !/^(npm|pnpm)_/i.test(key)));
}
