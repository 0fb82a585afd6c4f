import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/build-site.js';
import { describeRun, run } from './support/pack.js';

/** The published packages, by folder under packages/ (private ones, such as test-support, are not published). */
const PACKAGE_DIRS = readdirSync(join(REPO_ROOT, 'packages'), { withFileTypes: true })
  .filter((e) => e.isDirectory() && isPublished(join(REPO_ROOT, 'packages', e.name, 'package.json')))
  .map((e) => e.name)
  .sort();

function isPublished(packageJson: string): boolean {
  try {
    return (JSON.parse(readFileSync(packageJson, 'utf8')) as { private?: boolean }).private !== true;
  } catch {
    return false;
  }
}

const DEPCRUISE = join(REPO_ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const CONFIG = join(REPO_ROOT, '.dependency-cruiser.cjs');

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
}

/**
 * Run dependency-cruiser with the repository's rules over `targets`, from `cwd`: its exit status
 * (0 when it ran; the JSON reporter does not fail on violations) and the violations it found.
 */
function cruise(cwd: string, targets: readonly string[]): { status: number | null; violations: Violation[]; output: string } {
  const result = run(process.execPath, [DEPCRUISE, '--config', CONFIG, '--output-type', 'json', ...targets], cwd);
  let violations: Violation[] = [];
  try {
    violations = (JSON.parse(result.stdout) as { summary: { violations: Violation[] } }).summary.violations;
  } catch {
    // left empty: the status assertion reports the output
  }
  return { status: result.status, violations, output: describeRun('depcruise', result) };
}

const fixtureDir = mkdtempSync(join(tmpdir(), 'parl-house-rules-'));
afterAll(() => rmSync(fixtureDir, { recursive: true, force: true }));

describe('the dependency rules (.dependency-cruiser.cjs, dependency-cruiser)', () => {
  it('hold for every package and room (see the header of .dependency-cruiser.cjs)', () => {
    const result = cruise(REPO_ROOT, PACKAGE_DIRS.map((dir) => `packages/${dir}/src`));
    expect(result.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
    expect(result.status, result.output).toBe(0);
  });

  it('catch each kind of breach (a scratch workspace with one bad import per rule)', () => {
    const files: Record<string, string> = {
      'packages/core/src/index.ts': "export const one = 1;\n",
      'packages/core/src/bad.ts': [
        "import { readFileSync } from 'node:fs';",
        "import * as tf from '@tensorflow/tfjs-core';",
        "import { initBackend } from '@parl/gpu';",
        'export const used = [readFileSync, tf, initBackend];',
      ].join('\n'),
      'packages/gpu/src/ok.ts': "import { one } from '@parl/core';\nexport const two = one + 1;\n",
      'packages/gpu/src/bad.ts': "import { runEpisodes } from '@parl/sim';\nexport const used = runEpisodes;\n",
      'packages/traces/src/bad.ts': "import { simulate } from '@parl/sim';\nimport { one } from '../../core/src/index.js';\nexport const used = [simulate, one];\n",
      'packages/serve/src/bad.ts': "import { runEpisodes } from '@parl/sim';\nimport * as tf from '@tensorflow/tfjs-core';\nexport const used = [runEpisodes, tf];\n",
      'packages/sim/src/a.ts': "import { b } from './b.js';\nexport const a = (): unknown => b;\n",
      'packages/sim/src/b.ts': "import { a } from './a.js';\nexport const b = (): unknown => a;\n",
      'packages/sim/src/training/trainer.ts': 'export const train = 1;\n',
      'packages/sim/src/engine/bad.ts': "import { train } from '../training/trainer.js';\nexport const used = train;\n",
      'packages/io/src/bad.ts': "import { readTraces } from '@parl/traces';\nexport const used = readTraces;\n",
      'packages/io/src/index.ts': "export { hidden } from './internal/hidden.js';\n",
      'packages/io/src/internal/hidden.ts': 'export const hidden = 1;\n',
      'packages/swarm/src/bad.ts': "import { runEpisodes } from '@parl/sim';\nexport const used = runEpisodes;\n",
      'packages/cli/src/internal/report/bad.ts': "import { runEpisodes } from '@parl/sim';\nexport const used = runEpisodes;\n",
      'packages/cli/src/internal/report/ok.ts': "export const lazy = (): Promise<unknown> => import('@parl/sim');\n",
      'packages/cli/src/program.ts': "import { runTrain } from './internal/commands/train.js';\nexport const used = runTrain;\n",
      'packages/cli/src/internal/commands/train.ts': "import { runEpisodes } from '@parl/sim';\nimport { samples } from './schedule-samples.js';\nexport const runTrain = [runEpisodes, samples];\n",
      'packages/cli/src/internal/commands/schedule-samples.ts': "export const samples = 1;\n",
      'packages/cli/src/internal/commands/schedule.ts': "import { samples } from './schedule-samples.js';\nexport const used = samples;\n",
      'packages/serve/src/routes/episodes.ts': "import { page } from './episode-page.js';\nimport { health } from './health.js';\nexport const used = [page, health];\n",
      'packages/serve/src/routes/episode-page.ts': "export const page = 1;\n",
      'packages/serve/src/routes/health.ts': "export const health = 1;\n",
    };
    for (const [path, source] of Object.entries(files)) {
      mkdirSync(dirname(join(fixtureDir, path)), { recursive: true });
      writeFileSync(join(fixtureDir, path), source);
    }
    copyFileSync(join(REPO_ROOT, 'tsconfig.base.json'), join(fixtureDir, 'tsconfig.base.json'));
    const result = cruise(fixtureDir, ['packages']);
    // (the JSON reporter exits 0 whatever it found: the violations are the verdict)
    expect(result.status, result.output).toBe(0);
    const found = new Set(result.violations.map((v) => `${v.rule.name} ${v.from}`));
    expect([...found].sort()).toEqual(
      [
        'core-depends-on-nothing packages/core/src/bad.ts',
        'core-imports-no-node-module packages/core/src/bad.ts',
        'core-imports-no-tfjs packages/core/src/bad.ts',
        'gpu-depends-on-core-only packages/gpu/src/bad.ts',
        'io-index-never-reexports-internals packages/io/src/index.ts',
        'no-circular packages/sim/src/a.ts',
        'sim-engine-imports-only-lower-rooms packages/sim/src/engine/bad.ts',
        'no-relative-import-into-another-package packages/traces/src/bad.ts',
        'traces-depends-on-core-only packages/traces/src/bad.ts',
        'serve-depends-on-core-io-and-traces-only packages/serve/src/bad.ts',
        'io-depends-on-core-only packages/io/src/bad.ts',
        'swarm-never-loads-the-simulator packages/swarm/src/bad.ts',
        'cli-loads-sim-serve-swarm-lazily packages/cli/src/internal/report/bad.ts',
        'cli-loads-each-command-on-demand packages/cli/src/program.ts',
        'a-command-never-imports-another-command packages/cli/src/internal/commands/train.ts',
        'a-route-never-imports-another-route packages/serve/src/routes/episodes.ts',
      ].sort(),
    );
  });
});

describe('each package index.ts', () => {
  it.each(PACKAGE_DIRS)('packages/%s/src/index.ts names what it exports (no `export *` of a whole file)', (dir) => {
    const source = readFileSync(join(REPO_ROOT, 'packages', dir, 'src', 'index.ts'), 'utf8');
    expect(source.split('\n').filter((line) => /^\s*export\s+(type\s+)?\*/.test(line))).toEqual([]);
  });
});

describe('the builds', () => {
  it.each(PACKAGE_DIRS)('packages/%s builds with the shared tsup base (tsup.base.ts)', (dir) => {
    const config = readFileSync(join(REPO_ROOT, 'packages', dir, 'tsup.config.ts'), 'utf8');
    expect(config).toMatch(/from '\.\.\/\.\.\/tsup\.base\.js'/);
    expect(config).toMatch(/parlTsupConfig\(/);
  });

  it.each(PACKAGE_DIRS)('packages/%s typechecks against the sources of the packages it imports, not their builds', (dir) => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'packages', dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['typecheck']).toBe('tsc --noEmit -p tsconfig.typecheck.json');
    const config = JSON.parse(readFileSync(join(REPO_ROOT, 'packages', dir, 'tsconfig.typecheck.json'), 'utf8')) as { extends: string[] };
    expect(config.extends).toContain('../../tsconfig.source.json');
  });
});
