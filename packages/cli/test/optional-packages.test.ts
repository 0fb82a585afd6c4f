/**
 * The one optional-package loader: what a command loads (an optional package's option tables only
 * for the command that names it), one install hint for a package that is not installed, and a
 * broken install said as broken, never as "not installed".
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, requireBuiltBin } from './support/bin.js';
import { installCli } from './support/install-layout.js';

const PRELOAD = fileURLToPath(new URL('./support/loaded-modules.mjs', import.meta.url));

/** The environment of a user's shell: no NODE_PATH (pnpm's script runner sets one that reaches every workspace package). */
const { NODE_PATH: _nodePath, ...env } = process.env;

/** Every module `node bin/parl.js ARGS` loads (ES module URLs and CommonJS paths). */
function modulesLoadedBy(bin: string, args: readonly string[], dir: string): string[] {
  const file = join(dir, `modules-${args.join('-').replace(/[^a-z-]/g, '')}.txt`);
  const r = spawnSync(process.execPath, ['--import', PRELOAD, bin, ...args], { encoding: 'utf8', env: { ...env, PARL_LOADED_MODULES_FILE: file } });
  expect(r.status, r.stderr).toBe(0);
  return [...new Set(readFileSync(file, 'utf8').split('\n').filter((l) => l !== ''))];
}

/** The modules of `pkg` (a folder under packages/ or node_modules/@parl/) among `modules`. */
function of(pkg: string, modules: readonly string[]): string[] {
  return modules.filter((m) => new RegExp(`[\\\\/](packages|@parl)[\\\\/]${pkg}[\\\\/]`).test(m));
}

describe('what a command loads', () => {
  let dir = '';
  beforeAll(() => {
    requireBuiltBin();
    dir = mkdtempSync(join(tmpdir(), 'parl-loaded-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('parl reward --help loads no optional package: not @parl/traces, its options or the others', () => {
    const modules = modulesLoadedBy(BIN, ['reward', '--help'], dir);
    expect(of('core', modules).length).toBeGreaterThan(0); // the hook sees the packages it should
    for (const pkg of ['traces', 'sim', 'serve', 'swarm']) expect(of(pkg, modules), pkg).toEqual([]);
  });

  it("parl trace --help loads @parl/traces' small options entry, not its main entry", () => {
    const traces = of('traces', modulesLoadedBy(BIN, ['trace', '--help'], dir));
    expect(traces.some((m) => /[\\/]dist[\\/]options\.c?js$/.test(m))).toBe(true);
    expect(traces.filter((m) => /[\\/]dist[\\/]index\.c?js$/.test(m))).toEqual([]);
  });

  it("parl worker --help loads @parl/swarm's small options entry (its tool and rollout rows), not its main entry nor the AI SDK", () => {
    const modules = modulesLoadedBy(BIN, ['worker', '--help'], dir);
    const swarm = of('swarm', modules);
    expect(swarm.some((m) => /[\\/]dist[\\/]options\.c?js$/.test(m))).toBe(true);
    expect(swarm.filter((m) => /[\\/]dist[\\/]index\.c?js$/.test(m))).toEqual([]);
    expect(modules.filter((m) => /[\\/]node_modules[\\/](ai|@ai-sdk[\\/][^\\/]+|@modelcontextprotocol[\\/]sdk)[\\/]/.test(m))).toEqual([]);
  });
});

describe('an optional package installed but broken', () => {
  let root = '';
  let bin = '';
  beforeAll(() => {
    requireBuiltBin();
    root = mkdtempSync(join(tmpdir(), 'parl-broken-'));
    bin = installCli(root);
    // @parl/swarm is there, but its options entry needs a dependency that is not.
    const pkg = join(root, 'node_modules', '@parl', 'swarm');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({ name: '@parl/swarm', version: '0.0.0', exports: { './options': { require: './options.cjs', import: './options.cjs' } } }),
    );
    writeFileSync(join(pkg, 'options.cjs'), "module.exports = require('a-dependency-that-is-missing');\n");
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('says it is installed but does not load, naming what is missing, and never "not installed"', () => {
    const r = spawnSync(process.execPath, [bin, 'swarm', 'run', '--help'], { encoding: 'utf8', env });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("@parl/swarm is installed but does not load (Cannot find module 'a-dependency-that-is-missing'");
    expect(r.stderr).not.toContain('not installed');
  });

  it('says how to install a package that is really missing, in the one wording', () => {
    const r = spawnSync(process.execPath, [bin, 'serve'], { encoding: 'utf8', env });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('parl serve: parl serve needs @parl/serve, which is not installed: npm install @parl/serve (the HTTP service; it brings Fastify)\n');
  });
});
