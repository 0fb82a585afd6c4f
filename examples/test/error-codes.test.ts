/**
 * Every error class a published package exports carries stable codes, and docs/errors.md lists
 * each of them with the class: the classes are found by importing every entry of every published
 * package, so a new error class without a code (or a code missing from the table) fails here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/run-example.js';

interface PackageJson {
  readonly name: string;
  readonly private?: boolean;
  readonly exports?: Record<string, string | { readonly import?: { readonly default?: string } }>;
}

/** One exported error class: where it was found and the class itself. */
interface ExportedError {
  readonly entry: string;
  readonly name: string;
  readonly cls: abstract new (...args: never[]) => Error;
}

/** The import file of every entry (`@parl/io`, `@parl/io/queue`…) of every published workspace package. */
function publishedEntries(): { entry: string; file: string }[] {
  const root = join(REPO_ROOT, 'packages');
  return readdirSync(root)
    .map((dir) => join(root, dir))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .flatMap((dir) => {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
      if (pkg.private === true) return [];
      return Object.entries(pkg.exports ?? {}).flatMap(([subpath, target]) => {
        const file = typeof target === 'string' ? target : target.import?.default;
        if (file === undefined || !/\.(m?js)$/.test(file)) return [];
        return [{ entry: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`, file: join(dir, file) }];
      });
    });
}

/** Every exported class that extends Error, once each (a class exported by two entries is kept once). */
async function exportedErrors(): Promise<ExportedError[]> {
  const seen = new Map<unknown, ExportedError>();
  for (const { entry, file } of publishedEntries()) {
    if (!existsSync(file)) throw new Error(`${file} is missing: build the packages first (pnpm build)`);
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value !== 'function' || !(value.prototype instanceof Error) || seen.has(value)) continue;
      seen.set(value, { entry, name, cls: value as ExportedError['cls'] });
    }
  }
  return [...seen.values()];
}

/** docs/errors.md's table: each code and the text of its class column. */
function documentedCodes(): Map<string, string> {
  const text = readFileSync(join(REPO_ROOT, 'docs', 'errors.md'), 'utf8');
  const rows = new Map<string, string>();
  for (const match of text.matchAll(/^\| `([A-Z0-9_]+)` \| ([^|]+) \|/gm)) rows.set(match[1]!, match[2]!);
  return rows;
}

/** The codes a class declares (its own `codes`, or its parent's). */
function codesOf(cls: ExportedError['cls']): unknown {
  return (cls as unknown as { codes?: unknown }).codes;
}

describe('error codes', async () => {
  const errors = await exportedErrors();
  const table = documentedCodes();

  it('finds the error classes of every published package', () => {
    const names = errors.map((e) => e.name);
    // one class of each package that has them, so a broken discovery cannot pass silently
    for (const known of ['ParlInputError', 'ParlIoError', 'QueueError', 'TraceInputError', 'SweepError', 'SwarmProviderError', 'ParlServeError', 'CliError']) {
      expect(names).toContain(known);
    }
  });

  it.each(errors.map((e) => [e.name, e] as const))('%s has codes, each listed in docs/errors.md with the class', (name, { entry, cls }) => {
    const codes = codesOf(cls);
    expect(Array.isArray(codes), `${name} (${entry}) has no static codes array`).toBe(true);
    expect((codes as unknown[]).length, `${name} (${entry}) lists no codes`).toBeGreaterThan(0);
    for (const code of codes as unknown[]) {
      expect(code).toMatch(/^PARL_ERR_[A-Z0-9_]+$/);
      const row = table.get(code as string);
      expect(row, `${code as string} of ${name} (${entry}) is not in docs/errors.md's table`).toBeDefined();
      expect(row, `docs/errors.md's row for ${code as string} does not name ${name}`).toContain(`\`${name}\``);
    }
  });

  it('lists no code that no exported class carries', () => {
    const carried = new Set(errors.flatMap((e) => codesOf(e.cls) as string[]));
    expect([...table.keys()].filter((code) => !carried.has(code))).toEqual([]);
  });

  it('lists the codes core documents for ParlInputError', async () => {
    const core = (await import(pathToFileURL(join(REPO_ROOT, 'packages/core/dist/index.js')).href)) as { PARL_ERROR_CODES: readonly string[] };
    for (const code of core.PARL_ERROR_CODES) expect(table.has(code), code).toBe(true);
  });
});
