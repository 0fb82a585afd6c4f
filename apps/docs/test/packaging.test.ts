import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { startChatEndpoint, type ChatEndpoint } from '@parl/test-support/chat-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_APP_DIR, documentedPackages, REPO_ROOT } from './support/build-site.js';
import { describeRun, installTarballs, outsideWorkspaceEnv, packPackage, run, tarballEntries, unexpectedEntries } from './support/pack.js';
import { SMOKE_SCRIPTS } from './support/smoke-scripts.js';

const packages = documentedPackages();
const workDir = mkdtempSync(join(tmpdir(), 'parl-packaging-'));
const tarballDir = join(workDir, 'tarballs');
const appDir = join(workDir, 'app');
const tarballs = new Map<string, string>();
let install: SpawnSyncReturns<string>;

beforeAll(() => {
  mkdirSync(tarballDir);
  mkdirSync(appDir);
  for (const pkg of packages) tarballs.set(pkg.name, packPackage(join(REPO_ROOT, pkg.dir), tarballDir));
  install = installTarballs(appDir, [...tarballs.values()]);
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

/**
 * What a CommonJS user writes: `require` of every package, each called once. `sameErrorClass`: the
 * error sim throws (its CommonJS build requires core's) is core's CommonJS `ParlInputError`.
 */
const CJS_SMOKE = `
const { computeReward, ParlInputError } = require('@parl/core');
const { initBackend } = require('@parl/gpu');
const { runEpisodes, resolveEnvConfig } = require('@parl/sim');
const { readTraces } = require('@parl/traces');
const { runCli } = require('@parl/cli');
let sameErrorClass = false;
try {
  resolveEnvConfig({ famly: 'deep' });
} catch (error) {
  sameErrorClass = error instanceof ParlInputError;
}
initBackend({ order: ['cpu'] }).then((selection) => {
  const total_reward = computeReward({ num_subagents: 25, completed_subtasks: 20, success: true, quality: 0.8, training_step: 5000 }).total_reward;
  console.log(JSON.stringify({ total_reward, backend: selection.backend, runEpisodes: typeof runEpisodes, readTraces: typeof readTraces, runCli: typeof runCli, sameErrorClass }));
});
`;

/** Run `node` in the install folder, as a user would, outside the workspace. */
function nodeInApp(args: readonly string[]): SpawnSyncReturns<string> {
  return run(process.execPath, args, appDir, outsideWorkspaceEnv());
}

describe.each(packages)('the tarball of $name', ({ name }) => {
  it('holds only dist/, README.md, LICENSE, CHANGELOG.md and package.json (and the cli its bin/, sim its names/), and all of the required ones', () => {
    const entries = tarballEntries(tarballs.get(name) as string);
    expect(unexpectedEntries(entries, name)).toEqual([]);
    for (const required of ['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts', 'dist/index.cjs', 'dist/index.d.cts']) {
      expect(entries, `${name} lacks ${required}`).toContain(required);
    }
  });

  it('resolves with types for import and require under node10, node16 and bundler resolution (@arethetypeswrong/cli on the tarball)', () => {
    const attw = join(REPO_ROOT, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
    const result = run(process.execPath, [attw, tarballs.get(name) as string, '--format', 'ascii'], workDir, { ...process.env, NO_COLOR: '1' });
    expect(result.status, describeRun('attw', result)).toBe(0);
    expect(result.stdout).toMatch(/No problems found/);
  });

  it('passes publint --strict (as published: the tarball itself is linted)', () => {
    // publint's exports map hides its package.json; its bin is at a fixed place in the package.
    const publint = join(DOCS_APP_DIR, 'node_modules', 'publint', 'src', 'cli.js');
    const result = run(process.execPath, [publint, 'run', tarballs.get(name) as string, '--strict'], workDir);
    expect(result.status, describeRun('publint --strict', result)).toBe(0);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/^(Errors|Warnings):/m);
  });

  it('names its workspace dependencies by version, not workspace:', () => {
    const extract = run('tar', ['-xzOf', tarballs.get(name) as string, 'package/package.json'], workDir);
    expect(extract.status, describeRun('tar', extract)).toBe(0);
    expect(extract.stdout).not.toContain('workspace:');
  });
});

describe('the five tarballs installed together into an empty folder with npm', () => {
  it('install', () => {
    expect(install.status, describeRun('npm install', install)).toBe(0);
  });

  it.each(packages)('$name imports and runs by its package name', ({ name }) => {
    const smoke = SMOKE_SCRIPTS[name];
    expect(smoke, `no smoke script for ${name} in test/support/smoke-scripts.ts`).toBeDefined();
    if (smoke === undefined) return;
    const result = nodeInApp(['--input-type=module', '-e', smoke.source]);
    expect(result.status, describeRun(`node (${name})`, result)).toBe(0);
    const lastLine = result.stdout.trim().split('\n').at(-1) ?? '';
    const problem = smoke.check(JSON.parse(lastLine) as Record<string, unknown>);
    expect(problem).toBeUndefined();
  });

  it('runs from CommonJS: a "type": "commonjs" project requires every package and calls it', () => {
    const cjsDir = join(appDir, 'cjs');
    mkdirSync(cjsDir, { recursive: true });
    writeFileSync(join(cjsDir, 'package.json'), `${JSON.stringify({ name: 'parl-cjs-check', private: true, type: 'commonjs' }, null, 2)}\n`);
    writeFileSync(join(cjsDir, 'check.js'), CJS_SMOKE);
    const result = run(process.execPath, ['check.js'], cjsDir, outsideWorkspaceEnv());
    expect(result.status, describeRun('node check.js (CommonJS)', result)).toBe(0);
    const printed = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
    expect(printed).toEqual({
      total_reward: 0.8525,
      backend: 'cpu',
      runEpisodes: 'function',
      readTraces: 'function',
      runCli: 'function',
      sameErrorClass: true,
    });
  });

  it('runs TypeScript with tsx in a project that `npm init -y` made ("type": "commonjs"): import compiled to require', () => {
    const dir = join(appDir, 'tsx-cjs');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'parl-tsx-check', version: '1.0.0', type: 'commonjs' }, null, 2)}\n`);
    writeFileSync(
      join(dir, 'api.ts'),
      [
        "import { computeReward, type EpisodeRecord } from '@parl/core';",
        "import { runCli } from '@parl/cli';",
        'const record: EpisodeRecord = { num_subagents: 25, completed_subtasks: 20, success: true, quality: 0.8, training_step: 5000 };',
        'console.log(JSON.stringify({ total_reward: computeReward(record).total_reward, runCli: typeof runCli, moduleSystem: typeof require }));',
      ].join('\n'),
    );
    const require = createRequire(join(DOCS_APP_DIR, 'package.json'));
    const tsx = join(dirname(require.resolve('tsx/package.json')), 'dist', 'cli.mjs');
    const result = run(process.execPath, [tsx, 'api.ts'], dir, outsideWorkspaceEnv());
    expect(result.status, describeRun('tsx api.ts', result)).toBe(0);
    expect(JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}')).toEqual({ total_reward: 0.8525, runCli: 'function', moduleSystem: 'function' });
  });

  it.each([
    ['an ES module (module nodenext)', 'esm', 'check.ts', ['--module', 'nodenext', '--moduleResolution', 'nodenext']],
    ['a CommonJS module (module node16 in a "type": "commonjs" project)', 'cjs', 'check.ts', ['--module', 'node16', '--moduleResolution', 'node16']],
    ['a bundler project (moduleResolution bundler)', 'bundler', 'check.ts', ['--module', 'esnext', '--moduleResolution', 'bundler']],
  ] as const)('gives types to %s: a strict file importing every package compiles against the installed declarations', (_, folder, file, flags) => {
    const dir = join(appDir, folder);
    mkdirSync(dir, { recursive: true });
    if (folder === 'cjs') {
      writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'parl-cjs-check', private: true, type: 'commonjs' }, null, 2)}\n`);
    }
    const lines = packages.map((pkg, i) => `import * as p${i} from '${pkg.name}';`);
    lines.push(`export const loaded: number = [${packages.map((_, i) => `Object.keys(p${i}).length`).join(', ')}].length;`);
    lines.push(`import { computeReward } from '@parl/core';`, `export const total: number = computeReward({ r_perf: 1 }).total_reward;`);
    writeFileSync(join(dir, file), `${lines.join('\n')}\n`);
    const require = createRequire(join(DOCS_APP_DIR, 'package.json'));
    const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
    const result = run(process.execPath, [
      tsc, '--noEmit', '--strict', '--target', 'es2022', ...flags,
      '--skipLibCheck', '--types', 'node', '--typeRoots', join(DOCS_APP_DIR, 'node_modules', '@types'), file,
    ], dir, outsideWorkspaceEnv());
    expect(result.status, describeRun(`tsc (${folder})`, result)).toBe(0);
  });

  it('puts a working `parl` on the bin path: parl --help', () => {
    const pkg = JSON.parse(readFileSync(join(appDir, 'node_modules', '@parl', 'cli', 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(Object.keys(pkg.bin)).toContain('parl');
    const result = run(join(appDir, 'node_modules', '.bin', 'parl'), ['--help'], appDir, outsideWorkspaceEnv());
    expect(result.status, describeRun('parl --help', result)).toBe(0);
    expect(result.stdout).toMatch(/Usage: parl/);
    expect(result.stdout).toMatch(/\breward\b/);
  });
});

describe('@parl/cli installed alone from its tarball with core and io (issue 21: the CLI installs without the server, the simulator or the trace readers)', () => {
  const aloneDir = join(workDir, 'cli-alone');
  let aloneInstall: SpawnSyncReturns<string>;
  const parlAlone = (args: readonly string[], input?: string): SpawnSyncReturns<string> =>
    spawnSync(join(aloneDir, 'node_modules', '.bin', 'parl'), [...args], { cwd: aloneDir, env: outsideWorkspaceEnv(), encoding: 'utf8', ...(input === undefined ? {} : { input }) });

  beforeAll(() => {
    mkdirSync(aloneDir);
    aloneInstall = installTarballs(aloneDir, ['@parl/core', '@parl/io', '@parl/cli'].map((name) => tarballs.get(name) as string));
  });

  it('installs with nothing else of ours', () => {
    expect(aloneInstall.status, describeRun('npm install (core, io, cli)', aloneInstall)).toBe(0);
    const ours = readdirSync(join(aloneDir, 'node_modules', '@parl')).sort();
    expect(ours).toEqual(['cli', 'core', 'io']);
  });

  it('labels a record with parl reward', () => {
    writeFileSync(join(aloneDir, 'records.jsonl'), '{"num_subagents":25,"completed_subtasks":20,"success":true,"quality":0.8,"training_step":5000}\n');
    const result = parlAlone(['reward', '--in', 'records.jsonl']);
    expect(result.status, describeRun('parl reward', result)).toBe(0);
    expect(result.stderr).toBe('');
    expect((JSON.parse(result.stdout.trim()) as { total_reward: number }).total_reward).toBe(0.8525);
  });

  it.each([
    ['train', '@parl/sim'],
    ['sweep', '@parl/sim'],
    ['report', '@parl/sim'],
    ['serve', '@parl/serve'],
    ['trace', '@parl/traces'],
  ] as const)('parl %s says in one line how to install %s', (command, pkg) => {
    const args = command === 'sweep' ? ['sweep', '--grid', 'grid.json'] : command === 'report' ? ['report', 'runs/x'] : command === 'trace' ? ['trace', '--in', 'x.json'] : [command];
    const result = parlAlone(args);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^parl ${command}: parl ${command} needs ${pkg.replace('/', '\\/')}, which is not installed: npm install ${pkg.replace('/', '\\/')} \\([^)]+\\)\\n$`));
  });
});

describe('parl swarm installed from tarballs as the README says (core, io, cli, swarm; issue 29): eval works without @parl/traces, and the swarm example runs', () => {
  const swarmDir = join(workDir, 'swarm-alone');
  let swarmInstall: SpawnSyncReturns<string>;
  let endpoint: ChatEndpoint;

  /** Run a command in the install folder without blocking this process (the endpoint answers from it). */
  const runAsync = (command: string, args: readonly string[]): Promise<{ status: number | null; stdout: string; stderr: string }> => {
    const child = spawn(command, [...args], { cwd: swarmDir, env: outsideWorkspaceEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
  };

  beforeAll(async () => {
    mkdirSync(swarmDir);
    swarmInstall = installTarballs(swarmDir, ['@parl/core', '@parl/io', '@parl/cli', '@parl/swarm'].map((name) => tarballs.get(name) as string));
    endpoint = await startChatEndpoint();
  });
  afterAll(async () => {
    await endpoint?.close();
  });

  it('installs without @parl/traces', () => {
    expect(swarmInstall.status, describeRun('npm install (core, io, cli, swarm)', swarmInstall)).toBe(0);
    expect(readdirSync(join(swarmDir, 'node_modules', '@parl')).sort()).toEqual(['cli', 'core', 'io', 'swarm']);
  });

  it('parl swarm eval runs: the evaluation, with serial_collapse null and a note saying how to count it', async () => {
    const result = await runAsync(join(swarmDir, 'node_modules', '.bin', 'parl'), ['swarm', 'eval', '--base-url', endpoint.baseURL, '--model', 'm', '--tasks', '2', '--out', 'eval.json']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^parl swarm eval: note: serial collapse not counted \(serial_collapse is null\): it reads the spans with @parl\/traces, which is not installed: npm install @parl\/traces \(/);
    const evaluation = JSON.parse(readFileSync(join(swarmDir, 'eval.json'), 'utf8')) as Record<string, unknown>;
    expect(evaluation).toMatchObject({ tasks: 2, serial_collapse: null });
  }, 120_000);

  it('examples/swarm-local.mjs runs there with plain node', async () => {
    writeFileSync(join(swarmDir, 'swarm-local.mjs'), readFileSync(join(REPO_ROOT, 'examples', 'swarm-local.mjs')));
    const result = await runAsync(process.execPath, ['swarm-local.mjs', '--base-url', endpoint.baseURL, '--model', 'm', '2']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.split('\n').filter((l) => l.startsWith('wide-s1-'))).toHaveLength(2);
  }, 120_000);
});

describe("an app that brings its own `ai` (issue 36.4): installed from tarballs beside it, the swarm uses the app's copy", () => {
  // A version of ai 7 other than the swarm's own dev pin: were `ai` a dependency of @parl/swarm,
  // npm would nest a second copy under it.
  const APP_AI = '7.0.185';
  const appWithAi = join(workDir, 'app-with-ai');
  let appInstall: SpawnSyncReturns<string>;

  beforeAll(() => {
    mkdirSync(appWithAi);
    appInstall = installTarballs(appWithAi, [...['@parl/core', '@parl/io', '@parl/swarm'].map((name) => tarballs.get(name) as string), `ai@${APP_AI}`]);
  });

  it('installs exactly one copy of ai, the app’s', () => {
    expect(appInstall.status, describeRun(`npm install (core, io, swarm, ai@${APP_AI})`, appInstall)).toBe(0);
    const copies = packageCopies(join(appWithAi, 'node_modules'), 'ai');
    expect(copies.map((c) => c.version)).toEqual([APP_AI]);
    const ls = run('npm', ['ls', 'ai', '--all', '--parseable'], appWithAi, outsideWorkspaceEnv());
    expect(ls.status, describeRun('npm ls ai', ls)).toBe(0);
    expect(new Set(ls.stdout.trim().split('\n'))).toEqual(new Set([join(appWithAi, 'node_modules', 'ai')]));
  });

  it("runs SwarmAgent (examples/swarm-agent-app.mjs) with the app's ai, which its generateText is", () => {
    writeFileSync(join(appWithAi, 'swarm-agent-app.mjs'), readFileSync(join(REPO_ROOT, 'examples', 'swarm-agent-app.mjs')));
    const result = run(process.execPath, ['swarm-agent-app.mjs'], appWithAi, outsideWorkspaceEnv());
    expect(result.status, describeRun('node swarm-agent-app.mjs', result)).toBe(0);
    expect(result.stdout).toMatch(/^record: \d+ sub-agents, critical steps \d+/m);
    expect(result.stdout).toMatch(/^reward: total \d/m);
    const which = run(process.execPath, ['--input-type=module', '-e', [
      "import { createRequire } from 'node:module';",
      "const fromSwarm = createRequire(createRequire(import.meta.url).resolve('@parl/swarm'));",
      "console.log(JSON.stringify({ swarm: fromSwarm.resolve('ai'), app: createRequire(import.meta.url).resolve('ai') }));",
    ].join('\n')], appWithAi, outsideWorkspaceEnv());
    expect(which.status, describeRun('node (which ai)', which)).toBe(0);
    const paths = JSON.parse(which.stdout.trim()) as { swarm: string; app: string };
    expect(paths.swarm).toBe(paths.app);
  }, 120_000);
});

/** Every installed copy of a package under `nodeModules` (nested ones too), with its version. */
function packageCopies(nodeModules: string, name: string): { path: string; version: string }[] {
  const found: { path: string; version: string }[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === '.bin') continue;
      const path = join(dir, entry.name);
      if (entry.name.startsWith('@')) {
        visit(path);
        continue;
      }
      if (entry.name === name) found.push({ path, version: (JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as { version: string }).version });
      const nested = join(path, 'node_modules');
      if (readdirSync(path).includes('node_modules')) visit(nested);
    }
  };
  visit(nodeModules);
  return found;
}
