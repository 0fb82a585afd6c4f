import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The commands pnpm 10 hands to npm when they are its first argument (`pnpm docs` opens the npm
 * page of the package instead of running a `docs` script). Copied from the `switch (argv[0])` at
 * the top of pnpm 10.34.9's `dist/pnpm.cjs`.
 */
export const NPM_PASSTHROUGH_COMMANDS: ReadonlySet<string> = new Set([
  'access', 'adduser', 'bugs', 'deprecate', 'dist-tag', 'docs', 'edit', 'find', 'home', 'info', 'issues', 'login',
  'logout', 'owner', 'ping', 'prefix', 'profile', 'pkg', 'repo', 's', 'se', 'search', 'set-script', 'show', 'star',
  'stars', 'team', 'token', 'unpublish', 'unstar', 'v', 'version', 'view', 'whoami', 'xmas',
]);

/**
 * pnpm 10's own commands and their aliases, as `pnpm help -a` lists them (the test checks this list
 * against the pnpm that runs it). A script with one of these names cannot be run as `pnpm <name>`.
 */
export const PNPM_BUILTIN_COMMANDS: ReadonlySet<string> = new Set([
  'add', 'dedupe', 'fetch', 'import', 'i', 'install', 'it', 'install-test', 'ln', 'link', 'prune', 'rb', 'rebuild',
  'rm', 'remove', 'unlink', 'up', 'update', 'patch', 'patch-commit', 'patch-remove', 'audit', 'licenses', 'ls',
  'list', 'outdated', 'why', 'approve-builds', 'create', 'dlx', 'exec', 'ignored-builds', 'run', 'start', 't',
  'test', 'bin', 'c', 'config', 'deploy', 'doctor', 'init', 'pack', 'publish', 'root', 'self-update', 'env',
  'cat-file', 'cat-index', 'find-hash', 'help', 'store', 'cache', 'server', 'setup', 'recursive',
]);

/** Built-ins that run the package script of the same name (so the script must exist). */
const SCRIPT_RUNNING_BUILTINS: Readonly<Record<string, string>> = { test: 'test', t: 'test', start: 'start' };

/** Built-ins that are fine as written whatever the package holds. */
const STANDALONE_BUILTINS: ReadonlySet<string> = new Set(['install', 'i', 'add', 'help', 'pack', 'publish', 'dlx', 'create', 'init']);

/** pnpm options that take a value as the next argument. */
const OPTIONS_WITH_VALUE: ReadonlySet<string> = new Set(['--filter', '-F', '-C', '--dir', '--reporter', '--loglevel']);

/** A workspace package as the checker sees it. */
export interface WorkspacePackage {
  /** Absolute folder. */
  readonly dir: string;
  /** `name` from package.json. */
  readonly name: string;
  /** `scripts` from package.json. */
  readonly scripts: Readonly<Record<string, string>>;
}

/** One command found in a document. */
export interface DocCommand {
  /** The document, relative to the repository root. */
  readonly file: string;
  /** 1-based line of the document. */
  readonly line: number;
  /** The whole command line as written (comment removed). */
  readonly text: string;
}

/** The workspace: the root package, every member package, and turbo's task names. */
export interface Workspace {
  /** Absolute repository root. */
  readonly root: string;
  /** The root package.json. */
  readonly rootPackage: WorkspacePackage;
  /** Every package listed by pnpm-workspace.yaml (one level of `dir/*` globs, or plain folders). */
  readonly members: readonly WorkspacePackage[];
  /** Tasks defined in turbo.json (root and per-package). */
  readonly turboTasks: ReadonlySet<string>;
  /** `packageManager`'s pnpm version. */
  readonly pnpmVersion: string;
}

function readPackage(dir: string): WorkspacePackage | undefined {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return undefined;
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; scripts?: Record<string, string> };
  return { dir, name: pkg.name ?? '', scripts: pkg.scripts ?? {} };
}

/** Read the workspace at `root`: packages from pnpm-workspace.yaml, tasks from every turbo.json. */
export function readWorkspace(root: string): Workspace {
  const rootPackage = readPackage(root);
  if (rootPackage === undefined) throw new Error(`no package.json in ${root}`);
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const globs = [...yaml.matchAll(/^\s+-\s+["']?([^"'\n]+)["']?\s*$/gm)].map((m) => (m[1] as string).trim()).filter((g) => !g.startsWith('!'));
  const members: WorkspacePackage[] = [];
  for (const glob of globs) {
    const dirs = glob.endsWith('/*')
      ? readdirSync(join(root, glob.slice(0, -2)), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(root, glob.slice(0, -2), e.name))
      : [join(root, glob)];
    for (const dir of dirs) {
      const pkg = readPackage(dir);
      if (pkg !== undefined) members.push(pkg);
    }
  }
  const turboTasks = new Set<string>();
  for (const dir of [root, ...members.map((m) => m.dir)]) {
    const file = join(dir, 'turbo.json');
    if (!existsSync(file)) continue;
    const config = JSON.parse(readFileSync(file, 'utf8')) as { tasks?: Record<string, unknown> };
    for (const task of Object.keys(config.tasks ?? {})) turboTasks.add(task);
  }
  const manager = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { packageManager?: string }).packageManager ?? '';
  return { root, rootPackage, members, turboTasks, pnpmVersion: manager.replace(/^pnpm@/, '') };
}

/**
 * The shell command lines a markdown file names: every line of its fenced `sh`/`bash`/`shell`
 * blocks (and fences without a language), and every inline code span that starts with `pnpm` or
 * `npx … pnpm@`. Comments (`# …`) are removed.
 */
export function commandsIn(file: string, markdown: string): DocCommand[] {
  const found: DocCommand[] = [];
  const lines = markdown.split('\n');
  let fence: string | undefined;
  lines.forEach((raw, index) => {
    const opening = /^\s*```(\w*)\s*$/.exec(raw);
    if (opening !== null) {
      fence = fence === undefined ? (opening[1] ?? '') : undefined;
      return;
    }
    if (fence !== undefined) {
      if (!['', 'sh', 'bash', 'shell', 'console'].includes(fence)) return;
      const text = raw.replace(/^\s*\$\s+/, '').replace(/\s#.*$/, '').trim();
      if (text !== '' && !text.startsWith('#')) found.push({ file, line: index + 1, text });
      return;
    }
    for (const span of raw.matchAll(/`([^`]+)`/g)) {
      const text = (span[1] as string).trim();
      if (/^(pnpm|npx\s.*\bpnpm@)\s/.test(text)) found.push({ file, line: index + 1, text });
    }
  });
  return found;
}

/** The shell words of one simple command (no quoting beyond plain words is needed here). */
function words(segment: string): string[] {
  return segment.trim().split(/\s+/).filter((w) => w !== '');
}

/** The packages a pnpm `--filter` selects (`name`, `name...`, `...name`, `./path`). */
function filtered(workspace: Workspace, filter: string): WorkspacePackage[] {
  const name = filter.replace(/^\.\.\.|\.\.\.$/g, '').replace(/^\^/, '');
  if (name.startsWith('./') || name.startsWith('{')) {
    const dir = resolve(workspace.root, name.replace(/^\{|\}$/g, ''));
    return workspace.members.filter((m) => m.dir === dir);
  }
  const pattern = new RegExp(`^${name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return workspace.members.filter((m) => pattern.test(m.name));
}

function binExists(workspace: Workspace, dirs: readonly string[], bin: string): boolean {
  return [...dirs, workspace.root].some((dir) => existsSync(join(dir, 'node_modules', '.bin', bin)));
}

/** Problems with the turbo tasks a `turbo run a b …` names: each must be a turbo task some package scripts. */
function turboProblems(workspace: Workspace, args: readonly string[]): string[] {
  const problems: string[] = [];
  const tasks = args.filter((a) => !a.startsWith('-') && !a.includes('='));
  for (const task of tasks) {
    if (!workspace.turboTasks.has(task)) problems.push(`turbo task "${task}" is not defined in any turbo.json`);
    else if (!workspace.members.some((m) => task in m.scripts)) problems.push(`no workspace package has a "${task}" script for turbo to run`);
  }
  for (const arg of args) {
    const filter = /^--filter=(.+)$/.exec(arg)?.[1];
    if (filter !== undefined && filtered(workspace, filter).length === 0) problems.push(`turbo --filter=${filter} selects no package`);
  }
  return problems;
}

/**
 * What is wrong with one pnpm invocation (the words after `pnpm`), run from `cwd`: a command that
 * pnpm hands to npm or treats as its own, a script that the targeted packages lack, a bin that is
 * not installed, a turbo task no package defines. Empty when pnpm would run what the doc means.
 */
export function pnpmProblems(workspace: Workspace, args: readonly string[], cwd: string): string[] {
  const filters: string[] = [];
  let i = 0;
  for (; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (!arg.startsWith('-')) break;
    if (OPTIONS_WITH_VALUE.has(arg)) {
      const value = args[i + 1];
      if (value === undefined) return [`${arg} needs a value`];
      if (arg === '--filter' || arg === '-F') filters.push(value);
      i += 1;
    } else if (arg.startsWith('--filter=')) filters.push(arg.slice('--filter='.length));
  }
  const command = args[i];
  const rest = args.slice(i + 1);
  if (command === undefined) return ['no command after pnpm'];
  if (i === 0 && NPM_PASSTHROUGH_COMMANDS.has(command)) {
    return [`"pnpm ${command}" is handed to npm (\`npm ${command}\`), not run as a script: name the script differently or write "pnpm run ${command}"`];
  }
  let targets: WorkspacePackage[];
  if (filters.length > 0) {
    targets = filters.flatMap((f) => filtered(workspace, f));
    const empty = filters.filter((f) => filtered(workspace, f).length === 0);
    if (empty.length > 0) return empty.map((f) => `--filter ${f} selects no workspace package`);
  } else {
    const here = [workspace.rootPackage, ...workspace.members].find((p) => p.dir === cwd);
    if (here === undefined) return [`${cwd} is not a workspace package`];
    targets = [here];
  }
  const problems: string[] = [];
  const needScript = (script: string): void => {
    for (const target of targets) {
      const body = target.scripts[script];
      if (body === undefined) {
        problems.push(`${target.name || 'the root package'} has no "${script}" script`);
        continue;
      }
      const turbo = /^turbo run ([^&;|]+)/.exec(body);
      if (turbo !== null) problems.push(...turboProblems(workspace, words(turbo[1] as string)));
    }
  };
  if (command === 'run') {
    if (rest[0] === undefined) return ['pnpm run needs a script name'];
    needScript(rest[0]);
  } else if (command === 'exec') {
    const bin = rest[0];
    if (bin === undefined) return ['pnpm exec needs a command'];
    for (const target of targets) if (!binExists(workspace, [target.dir], bin)) problems.push(`no "${bin}" bin installed for ${target.name}`);
  } else if (command in SCRIPT_RUNNING_BUILTINS) {
    needScript(SCRIPT_RUNNING_BUILTINS[command] as string);
  } else if (STANDALONE_BUILTINS.has(command)) {
    // install, add, …: pnpm's own, fine as written.
  } else if (PNPM_BUILTIN_COMMANDS.has(command)) {
    if (targets.some((t) => command in t.scripts)) problems.push(`"${command}" is a pnpm command: the script of that name never runs as "pnpm ${command}"`);
  } else if (targets.every((t) => command in t.scripts)) {
    needScript(command);
  } else if (filters.length === 0 && binExists(workspace, targets.map((t) => t.dir), command)) {
    // pnpm runs a bin when no script has the name: `pnpm turbo run build`.
    if (command === 'turbo' && rest[0] === 'run') problems.push(...turboProblems(workspace, rest.slice(1)));
  } else {
    needScript(command);
  }
  return problems;
}

/**
 * What is wrong with one documented command line, run from the repository root: each `&&`, `;` or
 * `|` part that calls pnpm (`pnpm …` or `npx -y pnpm@VERSION …`, the version equal to
 * `packageManager`) is checked with {@link pnpmProblems}; `cd DIR` moves the folder for the parts
 * after it. Other programs are not checked.
 */
export function commandProblems(workspace: Workspace, text: string): string[] {
  let cwd = workspace.root;
  const problems: string[] = [];
  for (const segment of text.split(/&&|\|\||;|\|/)) {
    const w = words(segment);
    if (w[0] === 'cd' && w[1] !== undefined) {
      cwd = resolve(cwd, w[1]);
      if (!existsSync(cwd)) problems.push(`cd ${w[1]}: no such folder`);
      continue;
    }
    if (w[0] === 'pnpm') {
      problems.push(...pnpmProblems(workspace, w.slice(1), cwd));
    } else if (w[0] === 'npx') {
      const at = w.findIndex((word) => /^pnpm@/.test(word));
      if (at < 0) continue;
      const version = (w[at] as string).slice('pnpm@'.length);
      if (version !== workspace.pnpmVersion) problems.push(`npx runs pnpm@${version}, packageManager is pnpm@${workspace.pnpmVersion}`);
      problems.push(...pnpmProblems(workspace, w.slice(at + 1), cwd));
    }
  }
  return problems;
}

/**
 * Names of pnpm's own commands in the text `pnpm help -a` prints (lines such as
 * `   i, install   Install all dependencies`, or `store add   Adds …` for `store`).
 */
export function builtinsInHelp(help: string): string[] {
  const names: string[] = [];
  let inCommands = false;
  for (const line of help.split('\n')) {
    if (/^Options:/.test(line)) inCommands = false;
    else if (/^[A-Z][\w ]+:\s*$/.test(line)) inCommands = true;
    if (!inCommands) continue;
    const match = /^\s{2,}(?:([a-z][\w-]*), )?([a-z][\w-]*)(?: [a-z][\w-]*)?\s{2,}\S/.exec(line);
    if (match === null) continue;
    if (match[1] !== undefined) names.push(match[1]);
    names.push(match[2] as string);
  }
  return names;
}
