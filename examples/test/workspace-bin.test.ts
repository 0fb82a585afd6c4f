import { accessSync, constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeRun, EXAMPLES_DIR, REPO_ROOT, runIn } from './support/run-example.js';

/** Every workspace package with a `bin` field: its folder and its bins. */
function packagesWithBins(): { name: string; dir: string; bins: Record<string, string> }[] {
  const dirs = ['packages', 'apps'].flatMap((parent) =>
    readdirSync(join(REPO_ROOT, parent), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => join(REPO_ROOT, parent, e.name)),
  );
  return dirs
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; bin?: string | Record<string, string> };
      const bins = typeof pkg.bin === 'string' ? { [pkg.name.replace(/^@[^/]+\//, '')]: pkg.bin } : (pkg.bin ?? {});
      return { name: pkg.name, dir, bins };
    })
    .filter((p) => Object.keys(p.bins).length > 0);
}

/** The pnpm that runs this test (turbo and `pnpm test` set npm_execpath), else the pinned one through npx. */
function pnpm(): { command: string; prefix: string[] } {
  const execPath = process.env.npm_execpath;
  if (execPath !== undefined && /pnpm/.test(execPath)) {
    return /\.(c|m)?js$/.test(execPath) ? { command: process.execPath, prefix: [execPath] } : { command: execPath, prefix: [] };
  }
  const manager = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { packageManager: string }).packageManager;
  return { command: 'npx', prefix: ['-y', manager] };
}

describe('the bins workspace packages link for each other', () => {
  const withBins = packagesWithBins();

  it('include the parl command of @parl/cli', () => {
    expect(withBins.map((p) => p.name)).toContain('@parl/cli');
  });

  // pnpm links a dependency's bins at install time, before anything is built: a bin inside the
  // build output (dist/) does not exist yet on a fresh clone, and `pnpm install` warns
  // "Failed to create bin at …/node_modules/.bin/parl … ENOENT" and leaves no link.
  it.each(withBins.flatMap((p) => Object.entries(p.bins).map(([bin, path]) => [p.name, bin, path, p.dir] as const)))(
    '%s: bin %s (%s) is a committed executable node script, not a build output',
    (_, __, path, dir) => {
      const file = join(dir, path);
      expect(relative(dir, file).split(/[\\/]/)[0], 'a bin under dist/ is missing until the first build').not.toBe('dist');
      expect(existsSync(file), `${file} does not exist`).toBe(true);
      expect(readFileSync(file, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
      expect(() => accessSync(file, constants.X_OK)).not.toThrow();
    },
  );

  it('`pnpm exec parl` in examples/ runs the built command', () => {
    const { command, prefix } = pnpm();
    const help = runIn(command, [...prefix, 'exec', 'parl', '--help'], { cwd: EXAMPLES_DIR });
    expect(help.status, describeRun('pnpm exec parl --help', help)).toBe(0);
    expect(help.stdout).toMatch(/Usage: parl/);
    // --silent: pnpm's own notices (on Node 20, that @parl/swarm wants Node >= 22) stay off the
    // command's stdout, which here is a record to parse.
    const reward = runIn(command, [...prefix, '--silent', 'exec', 'parl', 'reward'], {
      cwd: EXAMPLES_DIR,
      input: `${JSON.stringify({ num_subagents: 25, completed_subtasks: 20, success: true, quality: 0.8, training_step: 5000 })}\n`,
    });
    expect(reward.status, describeRun('pnpm exec parl reward', reward)).toBe(0);
    expect((JSON.parse(reward.stdout) as { total_reward: number }).total_reward).toBeCloseTo(0.8525, 12);
  });
});
