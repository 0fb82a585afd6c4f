import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/build-site.js';
import {
  builtinsInHelp,
  commandProblems,
  commandsIn,
  NPM_PASSTHROUGH_COMMANDS,
  PNPM_BUILTIN_COMMANDS,
  readWorkspace,
} from './support/doc-commands.js';
import { outsideWorkspaceEnv, pnpmCommand } from './support/pack.js';

/** The documents whose commands a newcomer types first. */
const DOCUMENTS = ['README.md', 'CONTRIBUTING.md', 'apps/docs/README.md', 'examples/README.md', 'docs/benchmarks.md'];

const workspace = readWorkspace(REPO_ROOT);
const commands = DOCUMENTS.flatMap((file) => commandsIn(file, readFileSync(join(REPO_ROOT, file), 'utf8')));
const pnpmCommands = commands.filter((c) => /(^|[\s;&|])(pnpm|npx\s.*\bpnpm@\S+)\s/.test(c.text));

describe('every pnpm command README.md, CONTRIBUTING.md and the other first-hour documents name', () => {
  it('is found (the documents name the commands this test is meant to check)', () => {
    const texts = pnpmCommands.map((c) => c.text);
    expect(texts).toContain('pnpm build');
    expect(texts).toContain('pnpm docs:build');
    expect(texts.some((t) => t.startsWith('npx -y pnpm@'))).toBe(true);
    expect(pnpmCommands.length).toBeGreaterThan(20);
  });

  it.each(pnpmCommands.map((c) => [`${c.file}:${c.line}  ${c.text}`, c] as const))('%s', (_, command) => {
    expect(commandProblems(workspace, command.text)).toEqual([]);
  });
});

describe('the command checker', () => {
  it('catches a script that pnpm hands to npm: `pnpm docs` opens the npm page, it never builds a site', () => {
    expect(commandProblems(workspace, 'pnpm docs')).toEqual([expect.stringMatching(/handed to npm/)]);
    expect(commandProblems(workspace, 'pnpm run docs:build')).toEqual([]);
  });

  it('catches a missing script, a filter that selects nothing, a missing bin and an undefined turbo task', () => {
    expect(commandProblems(workspace, 'pnpm --filter @parl/core nosuchscript')).toEqual([expect.stringMatching(/@parl\/core has no "nosuchscript" script/)]);
    expect(commandProblems(workspace, 'pnpm --filter @parl/nosuch build')).toEqual([expect.stringMatching(/selects no workspace package/)]);
    expect(commandProblems(workspace, 'cd packages/core && pnpm exec nosuchbin')).toEqual([expect.stringMatching(/no "nosuchbin" bin/)]);
    expect(commandProblems(workspace, 'pnpm turbo run nosuchtask --filter=@parl/sim...')).toEqual([expect.stringMatching(/turbo task "nosuchtask"/)]);
    expect(commandProblems(workspace, 'npx -y pnpm@9.0.0 build')).toEqual([expect.stringMatching(/packageManager is pnpm@/)]);
  });

  it('follows a root script through turbo to the packages that define the task', () => {
    const withStaleTask = { ...workspace, turboTasks: new Set([...workspace.turboTasks].filter((t) => t !== 'docs:build')) };
    expect(commandProblems(withStaleTask, 'pnpm docs:build')).toEqual([expect.stringMatching(/turbo task "docs:build"/)]);
  });

  it("knows every command the running pnpm lists as its own (pnpm help -a), and no root script is named after one of them or after an npm pass-through", () => {
    const pnpm = process.env.npm_execpath !== undefined && /pnpm/.test(process.env.npm_execpath)
      ? pnpmCommand()
      : { command: 'npx', prefix: ['-y', `pnpm@${workspace.pnpmVersion}`] };
    const help = spawnSync(pnpm.command, [...pnpm.prefix, 'help', '-a'], { cwd: REPO_ROOT, encoding: 'utf8', env: outsideWorkspaceEnv() });
    expect(help.status, help.stderr).toBe(0);
    const listed = builtinsInHelp(help.stdout);
    expect(listed).toContain('install');
    expect(listed).toContain('exec');
    expect(listed.filter((name) => !PNPM_BUILTIN_COMMANDS.has(name))).toEqual([]);
    const scripts = Object.keys(workspace.rootPackage.scripts);
    // test and start are pnpm commands that run the script of the same name: those are fine.
    expect(scripts.filter((s) => NPM_PASSTHROUGH_COMMANDS.has(s) || (PNPM_BUILTIN_COMMANDS.has(s) && s !== 'test' && s !== 'start'))).toEqual([]);
  });
});
