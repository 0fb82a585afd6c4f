import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as core from '../src/index.js';

/**
 * The `@example` blocks of core's doc comments are executed, so the docs cannot drift from the
 * code: each block runs with every export of `@parl/core` in scope, and a statement that ends in
 * a comment holding a JSON value (`criticalSteps(stages).critical_steps; // 7`) must evaluate to
 * that value. Prose comments (`// total = …`) are left alone.
 */
const SRC = join(import.meta.dirname, '..', 'src');

interface Example {
  readonly where: string;
  readonly code: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

function examplesOf(file: string): Example[] {
  const text = readFileSync(file, 'utf8');
  const found: Example[] = [];
  for (const match of text.matchAll(/@example[^\n]*\n((?:\s*\*[^\n]*\n)*?)\s*\*\s*```ts\n((?:\s*\*[^\n]*\n)*?)\s*\*\s*```/g)) {
    const code = (match[2] ?? '')
      .split('\n')
      .map((line) => line.replace(/^\s*\* ?/, ''))
      .join('\n');
    const line = text.slice(0, match.index).split('\n').length;
    found.push({ where: `${relative(SRC, file)}:${line}`, code });
  }
  return found;
}

/** A comment's leading JSON scalar (`7`, `"parallel"`, `true`), or undefined when it starts with prose. */
function leadingValue(comment: string): { value: unknown } | undefined {
  const m = /^(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|"(?:[^"\\]|\\.)*"|true|false|null)(?=$|[\s:,;)])/.exec(comment);
  return m === null ? undefined : { value: JSON.parse(m[1] ?? '') };
}

/**
 * `expr; // <JSON>` → an assertion that expr equals the value; a statement followed by a line
 * `// throws: MESSAGE` or `// ParlInputError: MESSAGE` → an assertion that it throws that message.
 */
function withAssertions(code: string): string {
  const lines = code.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const next = /^\s*\/\/\s*(?:throws|ParlInputError):\s*(.+?)\s*$/.exec(lines[i + 1] ?? '');
    const statement = /^(\s*)([^/\s].*?);\s*(?:\/\/\s*(.*?))?\s*$/.exec(line);
    if (next !== null && statement !== null) {
      out.push(`${statement[1]}__throws(() => { ${statement[2]}; }, ${JSON.stringify(next[1])}, ${JSON.stringify(statement[2])});`);
      i++;
      continue;
    }
    const declaration = /^\s*(const|let|var|import|export|if|for|try|throw|return)\b/.test(statement?.[2] ?? '');
    const expected = statement?.[3] === undefined || declaration ? undefined : leadingValue(statement[3]);
    out.push(statement === null || expected === undefined ? line : `${statement[1]}__check(${statement[2]}, ${JSON.stringify(expected.value)}, ${JSON.stringify(statement[2])});`);
  }
  return out.join('\n');
}

const examples = sourceFiles(SRC).flatMap(examplesOf);
const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<void>;

describe("core's TSDoc examples run as written", () => {
  it('finds the examples (a broken extractor must not pass by finding none)', () => {
    expect(examples.length).toBeGreaterThan(20);
  });

  it.each(examples.map((e) => [e.where, e] as const))('%s', async (_where, example) => {
    const code = withAssertions(example.code.replace(/^\s*import [^;]*from '@parl\/core';?\s*$/gm, ''));
    const js = ts.transpileModule(code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
    const names = Object.keys(core);
    const failures: string[] = [];
    const check = (actual: unknown, expected: unknown, source: string): void => {
      // float32 columns hold ~7 significant digits
      const same = typeof expected === 'number' && typeof actual === 'number' ? Math.abs(actual - expected) <= 1e-6 * Math.max(1, Math.abs(expected)) : JSON.stringify(actual) === JSON.stringify(expected);
      if (!same) failures.push(`${source} gave ${JSON.stringify(actual)}, the example says ${JSON.stringify(expected)}`);
    };
    const throws = (run: () => void, message: string, source: string): void => {
      try {
        run();
      } catch (err) {
        if (!(err instanceof Error) || !err.message.includes(message)) failures.push(`${source} threw ${String(err)}, the example says ${message}`);
        return;
      }
      failures.push(`${source} did not throw, the example says it throws ${message}`);
    };
    const consoleStub = { log: () => undefined, error: () => undefined, warn: () => undefined, table: () => undefined };
    await new AsyncFunction('__check', '__throws', 'console', ...names, js)(check, throws, consoleStub, ...names.map((n) => (core as Record<string, unknown>)[n]));
    expect(failures).toEqual([]);
  });
});
