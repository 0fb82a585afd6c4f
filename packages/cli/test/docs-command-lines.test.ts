import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../src/program.js';
import { memoryIo } from './support/memory-io.js';

/**
 * Every `parl …` command line the README, the guides and the package READMEs show in a shell block
 * parses as written: the command exists, every flag is one of its flags, every value is one its
 * parser takes, and required flags are there. Commands are not run (most need the reader's files
 * or a model endpoint); their actions are replaced, so only commander and the option tables'
 * parsers see each line.
 */

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

// The guides export the queue's URL before `--queue env:PARL_QUEUE_URL` reads it.
process.env['PARL_QUEUE_URL'] ??= 'redis://127.0.0.1:6379';

function markdownFiles(): string[] {
  const files = ['README.md', 'examples/README.md', 'CONTRIBUTING.md'];
  for (const name of readdirSync(join(REPO_ROOT, 'docs'))) if (name.endsWith('.md') && name !== 'spec.md') files.push(`docs/${name}`);
  for (const name of readdirSync(join(REPO_ROOT, 'packages'))) {
    try {
      readFileSync(join(REPO_ROOT, 'packages', name, 'README.md'));
      files.push(`packages/${name}/README.md`);
    } catch {
      // a package without a README
    }
  }
  return files;
}

/** One `parl` command line of a document. */
interface DocCommand {
  readonly where: string;
  readonly args: readonly string[];
}

/** Shell words of one simple command (quotes kept together; redirections dropped). */
function shellWords(text: string): string[] {
  const words: string[] = [];
  for (const m of text.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)) {
    const word = m[1] ?? m[2] ?? (m[3] as string);
    words.push(word);
  }
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (/^\d?[<>]{1,2}&?\d*$/.test(w)) {
      i++; // `> file`, `2> file`, `< file`: the file goes too
      continue;
    }
    if (/^\d?[<>]{1,2}/.test(w)) continue; // `>file`, `2>&1`
    kept.push(w);
  }
  return kept;
}

/** The `parl` command lines of the shell blocks of one Markdown text. */
function parlCommandsIn(file: string, markdown: string): DocCommand[] {
  const found: DocCommand[] = [];
  const lines = markdown.split('\n');
  let inShell = false;
  let prompted = false;
  let fence = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const open = /^(\s*)(```+)(\w*)/.exec(line);
    if (open !== null) {
      if (fence === '') {
        fence = open[2] as string;
        inShell = ['sh', 'bash', 'shell', 'console'].includes(open[3] as string);
        // A block that shows prompts (`$ cmd` then its output): only the prompted lines are commands.
        const end = lines.findIndex((l, j) => j > i && l.trimStart().startsWith(fence));
        prompted = lines.slice(i + 1, end < 0 ? undefined : end).some((l) => /^\s*\$\s/.test(l));
      } else if ((open[2] as string).length >= fence.length && (open[3] as string) === '') {
        fence = '';
        inShell = false;
      }
      continue;
    }
    if (!inShell || (prompted && !/^\s*\$\s/.test(line))) continue;
    let text = line;
    const start = i + 1;
    while (text.endsWith('\\') && i + 1 < lines.length) text = text.slice(0, -1) + ' ' + (lines[++i] as string);
    text = text.replace(/^\s*\$\s+/, '').replace(/\s#\s.*$/, '');
    if (/^\s*#/.test(text)) continue;
    for (const segment of text.split(/\|\||&&|[|;]/)) {
      const words = shellWords(segment.trim());
      const at = words.indexOf('parl');
      if (at < 0) continue;
      // `parl` as the command: alone, or after npx / pnpm [-s] [exec] / env assignments.
      const before = words.slice(0, at);
      if (!before.every((w) => /^(npx|pnpm|-s|--silent|exec|-y|[A-Z_][A-Z0-9_]*=\S*)$/.test(w))) continue;
      found.push({ where: `${file}:${start}`, args: words.slice(at + 1) });
    }
  }
  return found;
}

/** Replace every action of the program with nothing, and make every error a throw. */
function parseOnly(cmd: Command): void {
  cmd.exitOverride();
  cmd.configureOutput({ writeOut: () => {}, writeErr: () => {} });
  if (cmd.commands.length === 0) cmd.action(() => {});
  for (const sub of cmd.commands) parseOnly(sub);
}


describe('the parl command lines of the README and the guides', () => {
  const commands = markdownFiles().flatMap((file) => parlCommandsIn(file, readFileSync(join(REPO_ROOT, file), 'utf8')));

  it('are found in the documents (this test checks something)', () => {
    const names = new Set(commands.map((c) => c.args[0]));
    for (const name of ['reward', 'critical-steps', 'trace', 'train', 'simulate', 'sweep', 'serve', 'swarm', 'schedule', 'report', 'worker']) {
      expect(names, `no \`parl ${name}\` line in any shell block`).toContain(name);
    }
    expect(commands.length).toBeGreaterThan(40);
  });

  it.each(commands.map((c) => [`${c.where}  parl ${c.args.join(' ')}`, c] as const))('%s', async (_, command) => {
    const program = buildProgram(memoryIo().io);
    parseOnly(program);
    let problem: string | undefined;
    try {
      await program.parseAsync(['node', 'parl', ...command.args]);
    } catch (err) {
      if (!(err instanceof CommanderError) || err.exitCode !== 0) problem = err instanceof Error ? err.message : String(err);
    }
    expect(problem, `${relative(REPO_ROOT, join(REPO_ROOT, command.where))}`).toBeUndefined();
  });
});

/**
 * Flags the documents name that belong to other programs (Node, Chromium, redis-server, curl,
 * pnpm, turbo, tsc, farm-bench, OpenRLHF, llama.cpp's llama-server, slime) or are shown as a typo on purpose; every other `--flag` in
 * the documents must be a flag of some `parl` command.
 */
const OTHER_PROGRAMS_FLAGS = new Set([
  '--help', '--filter', '--pack', '--pack-destination', '--noEmit', '--max-old-space-size', '--cpu-prof', '--max-semi-space-size', '--trace-gc',
  '--vs', '--data-binary', '--remote', '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--save', '--appendonly', '--dir',
  '--import', '--lamda1', '--jinja', '--custom-generate-function-path', '--custom-rm-path', '--expose-gc', '--continue', '--single-threaded-gc',
  // examples/swarm-mcp.mjs's own flag
  '--scripted',
]);

function allCommands(cmd: Command): Command[] {
  return [cmd, ...cmd.commands.flatMap(allCommands)];
}

describe('every --flag the README, the guides and the package READMEs name', () => {
  const flags = new Set(allCommands(buildProgram(memoryIo().io)).flatMap((c) => c.options.map((o) => o.long ?? '')));

  it.each(markdownFiles())('in %s is a flag of a parl command (or of a program named beside it)', (file) => {
    const text = readFileSync(join(REPO_ROOT, file), 'utf8');
    const unknown = [...text.matchAll(/(?<![\w-])(--[a-zA-Z][a-zA-Z0-9-]*)/g)]
      .map((m) => m[1] as string)
      .filter((flag) => !flags.has(flag) && !OTHER_PROGRAMS_FLAGS.has(flag));
    expect([...new Set(unknown)]).toEqual([]);
  });
});

describe('the command-line finder', () => {
  it('finds parl after npx and pnpm -s, across pipes and continuations, and drops redirections', () => {
    const md = ['```sh', 'pnpm -s parl trace --in a.jsonl \\', '  --out b.jsonl 2> err.txt | npx parl reward > out.jsonl', 'echo parl', '```'].join('\n');
    expect(parlCommandsIn('x.md', md).map((c) => c.args)).toEqual([
      ['trace', '--in', 'a.jsonl', '--out', 'b.jsonl'],
      ['reward'],
    ]);
  });

  it('ignores text blocks and prose', () => {
    expect(parlCommandsIn('x.md', ['parl reward --nope', '```text', 'parl reward --nope', '```'].join('\n'))).toEqual([]);
  });

  it('takes only the prompted lines of a block that shows prompts and output', () => {
    const md = ['```sh', '$ parl train --steps 5', 'parl train: step 1/5', '```'].join('\n');
    expect(parlCommandsIn('x.md', md).map((c) => c.args)).toEqual([['train', '--steps', '5']]);
  });
});

describe('a line that is wrong fails the check', () => {
  it.each([
    ['an unknown flag', ['reward', '--lamda1', '0.1']],
    ['a bad value', ['critical-steps', '--budget', 'many']],
    ['an unknown command', ['rewad']],
    ['a missing required flag', ['swarm', 'run', '--tasks', '2']],
  ])('%s', async (_, args) => {
    const program = buildProgram(memoryIo().io);
    parseOnly(program);
    await expect(program.parseAsync(['node', 'parl', ...args])).rejects.toBeInstanceOf(CommanderError);
  });
});
