import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCS_APP_DIR, REPO_ROOT } from './support/build-site.js';

/**
 * The TypeScript snippets of the guides this package owns run as written, and every line of the
 * form `expression; // value` prints that value (to the digits shown; `…` means "starts with").
 */
const GUIDES = ['index.md', 'migrating-from-open-parl.md'];

interface Claim {
  readonly expression: string;
  readonly expected: readonly string[];
}

function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
}

/** The numbers a comment claims: the first `[...]` list when there is one, else the first number. */
function claimedNumbers(comment: string): string[] {
  const list = /\[([^\]]*)\]/.exec(comment);
  const source = list ? (list[1] as string) : comment;
  const numbers = source.match(/-?\d+(?:\.\d+)?…?/g) ?? [];
  return list ? numbers : numbers.slice(0, 1);
}

/** Rewrite a snippet so each claimed expression prints its value as JSON; returns the claims in order. */
function instrument(snippet: string): { code: string; claims: Claim[] } {
  const claims: Claim[] = [];
  const lines = snippet.split('\n').map((line) => {
    const m = /^(\s*)([^/]+?);\s*\/\/\s*(.+)$/.exec(line);
    if (!m || /^(const|let|import|export)\b/.test((m[2] as string).trim())) return line;
    const expected = claimedNumbers(m[3] as string);
    if (expected.length === 0) return line;
    claims.push({ expression: (m[2] as string).trim(), expected });
    return `${m[1]}console.log(JSON.stringify(Array.from([${m[2]}].flatMap((v) => (typeof v === 'number' ? [v] : Array.from(v))))));`;
  });
  return { code: lines.join('\n'), claims };
}

function matches(actual: number, expected: string): boolean {
  if (expected.endsWith('…')) return String(actual).startsWith(expected.slice(0, -1));
  const decimals = expected.split('.')[1]?.length ?? 0;
  return Math.abs(actual - Number(expected)) <= 0.5 * 10 ** -decimals;
}

describe.each(GUIDES)('the TypeScript snippets of docs/%s', (guide) => {
  const blocks = tsBlocks(readFileSync(join(REPO_ROOT, 'docs', guide), 'utf8'));

  it('has snippets to check', () => {
    expect(blocks.length).toBeGreaterThan(0);
  });

  it.each(blocks.map((block, i) => [i + 1, block] as const))('snippet %i runs and prints what its comments say', (_, block) => {
    const { code, claims } = instrument(block);
    expect(claims.length, 'a snippet with no `expression; // value` line checks nothing').toBeGreaterThan(0);
    // These snippets are written without type annotations, so Node runs them as they are.
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: DOCS_APP_DIR, encoding: 'utf8' });
    expect(result.status, `${result.stderr}\n--- code\n${code}`).toBe(0);
    const printed = result.stdout.trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as number[]);
    expect(printed).toHaveLength(claims.length);
    claims.forEach((claim, i) => {
      const actual = printed[i] as number[];
      claim.expected.forEach((value, j) => {
        expect(matches(actual[j] as number, value), `${claim.expression}: element ${j} is ${actual[j]}, the guide says ${value}`).toBe(true);
      });
    });
  });
});
