/**
 * The `@example` blocks of a package's doc comments, extracted and run, so that the docs cannot
 * drift from the code. One extractor and one runner for every package; each package's test says
 * where its sources are, which module its own name stands for, and what else is in scope.
 *
 * A block is a ```` ```ts ```` fence after `@example`. It runs as an async function body (top-level
 * `await` allowed) in a fresh temporary working folder, with its `import`s turned into dynamic
 * imports through the package's `importModule` (its own package name → its sources; a relative
 * specifier, as an internal module's example may use, → the source file beside it). Assertions
 * come from the comments, as written for a reader:
 *
 * - `expr; // <JSON value>` — `expr` must equal the value (numbers to 1e-6 relative);
 * - a statement followed by a line `// throws: MESSAGE` (or `// ParlInputError: MESSAGE`) — it
 *   must throw an error whose message holds MESSAGE.
 *
 * Prose comments (`// total = …`) are left alone.
 *
 * @module
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** One `@example` block: its file (relative to the sources, and absolute), where it is (`file.ts:line`) and its code. */
export interface TsdocExample {
  readonly file: string;
  readonly path: string;
  readonly where: string;
  readonly code: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** The ```` ```ts ```` `@example` blocks of every `.ts` file under `srcDir`, in file order. */
export function tsdocExamples(srcDir: string): TsdocExample[] {
  return sourceFiles(srcDir).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    const found: TsdocExample[] = [];
    for (const match of text.matchAll(/@example[^\n]*\n((?:\s*\*[^\n]*\n)*?)\s*\*\s*```ts\n((?:\s*\*[^\n]*\n)*?)\s*\*\s*```/g)) {
      const code = (match[2] ?? '')
        .split('\n')
        .map((line) => line.replace(/^\s*\* ?/, ''))
        .join('\n');
      const line = text.slice(0, match.index).split('\n').length;
      found.push({ file: relative(srcDir, file), path: file, where: `${relative(srcDir, file)}:${line}`, code });
    }
    return found;
  });
}

/** A comment's leading JSON scalar (`7`, `"parallel"`, `true`), or undefined when it starts with prose. */
function leadingValue(comment: string): { value: unknown } | undefined {
  const m = /^(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|"(?:[^"\\]|\\.)*"|true|false|null)(?=$|[\s:,;)])/.exec(comment);
  return m === null ? undefined : { value: JSON.parse(m[1] ?? '') };
}

/**
 * `expr; // <JSON>` → a check that expr equals the value; a statement followed by a line
 * `// throws: MESSAGE` or `// ParlInputError: MESSAGE` → a check that it throws that message.
 */
export function withAssertions(code: string): string {
  const lines = code.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const next = /^\s*\/\/\s*(?:throws|ParlInputError):\s*(.+?)\s*$/.exec(lines[i + 1] ?? '');
    const statement = /^(\s*)([^/\s].*?);\s*(?:\/\/\s*(.*?))?\s*$/.exec(line);
    if (next !== null && statement !== null) {
      out.push(`${statement[1]}await __throws(async () => { ${statement[2]}; }, ${JSON.stringify(next[1])}, ${JSON.stringify(statement[2])});`);
      i++;
      continue;
    }
    const declaration = /^\s*(const|let|var|import|export|if|for|try|throw|return)\b/.test(statement?.[2] ?? '');
    const expected = statement?.[3] === undefined || declaration ? undefined : leadingValue(statement[3]);
    out.push(statement === null || expected === undefined ? line : `${statement[1]}__check(${statement[2]}, ${JSON.stringify(expected.value)}, ${JSON.stringify(statement[2])});`);
  }
  return out.join('\n');
}

/** `import … from 'x'` statements of transpiled code as `const … = await __import('x')`. */
function dynamicImports(js: string): string {
  return js
    .replace(/^\s*import\s+\*\s+as\s+(\w+)\s+from\s+(['"][^'"]+['"]);?\s*$/gm, 'const $1 = await __import($2);')
    .replace(/^\s*import\s+(\w+)\s*,\s*\{([^}]*)\}\s+from\s+(['"][^'"]+['"]);?\s*$/gm, (_m, def: string, names: string, from: string) => `const { default: ${def}, ${names.replace(/\bas\b/g, ':')} } = await __import(${from});`)
    .replace(/^\s*import\s+\{([^}]*)\}\s+from\s+(['"][^'"]+['"]);?\s*$/gm, (_m, names: string, from: string) => `const {${names.replace(/\bas\b/g, ':')}} = await __import(${from});`)
    .replace(/^\s*import\s+(\w+)\s+from\s+(['"][^'"]+['"]);?\s*$/gm, 'const { default: $1 } = await __import($2);')
    .replace(/^\s*import\s+(['"][^'"]+['"]);?\s*$/gm, 'await __import($1);');
}

/** What an example runs with. */
export interface ExampleScope {
  /** Imports a module the example names (the package's own name → its sources); called from the package's test so that it resolves there. */
  readonly importModule: (specifier: string) => Promise<unknown>;
  /** Values in scope under their names (the package's exports, and what an example assumes is at hand). */
  readonly globals?: Readonly<Record<string, unknown>>;
  /**
   * The module of the example's own file (by its path relative to the sources): its exports are in
   * scope too, over `globals`, so that an example of an internal function runs as well.
   */
  readonly fileModule?: (file: string) => Promise<Readonly<Record<string, unknown>>>;
}

const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<unknown>;

/**
 * Run one example in a fresh temporary working folder (removed after); the failures of its
 * assertions, empty when it ran as written. An error it throws is thrown.
 */
export async function runTsdocExample(example: TsdocExample, scope: ExampleScope): Promise<string[]> {
  const transpiled = ts.transpileModule(withAssertions(example.code), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: false },
    reportDiagnostics: false,
  }).outputText;
  // In a block of its own, so that an example's imports and declarations may shadow the names in scope.
  const js = `{\n${dynamicImports(transpiled).replace(/^export \{\};?\s*$/gm, '')}\n}`;
  const failures: string[] = [];
  const check = (actual: unknown, expected: unknown, source: string): void => {
    const same = typeof expected === 'number' && typeof actual === 'number' ? Math.abs(actual - expected) <= 1e-6 * Math.max(1, Math.abs(expected)) : JSON.stringify(actual) === JSON.stringify(expected);
    if (!same) failures.push(`${source} gave ${JSON.stringify(actual)}, the example says ${JSON.stringify(expected)}`);
  };
  const throws = async (run: () => Promise<void>, message: string, source: string): Promise<void> => {
    try {
      await run();
    } catch (err) {
      if (!(err instanceof Error) || !err.message.includes(message)) failures.push(`${source} threw ${String(err)}, the example says ${message}`);
      return;
    }
    failures.push(`${source} did not throw, the example says it throws ${message}`);
  };
  const globals = { ...scope.globals, ...(await scope.fileModule?.(example.file)) };
  const names = Object.keys(globals);
  const quiet = { log: () => undefined, error: () => undefined, warn: () => undefined, info: () => undefined, table: () => undefined };
  const home = process.cwd();
  const dir = mkdtempSync(join(tmpdir(), 'parl-example-'));
  process.chdir(dir);
  try {
    const importModule = (specifier: string): Promise<unknown> =>
      scope.importModule(specifier.startsWith('.') ? join(dirname(example.path), specifier).replace(/\.js$/, '.ts') : specifier);
    await new AsyncFunction('__check', '__throws', '__import', 'console', ...names, js)(check, throws, importModule, quiet, ...names.map((n) => globals[n]));
  } finally {
    process.chdir(home);
    rmSync(dir, { recursive: true, force: true });
  }
  return failures;
}
