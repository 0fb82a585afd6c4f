import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as core from '../src/index.js';

// Every ```js snippet of docs/core.md runs, and prints what its `// →` comments say.
const guide = readFileSync(fileURLToPath(new URL('../../../docs/core.md', import.meta.url)), 'utf8');
const snippets = [...guide.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1] as string);

/** Run a snippet with `@parl/core` bound to the sources; return what it logged, line by line. */
function run(snippet: string): string[] {
  const body = snippet.replace(/import \{([^}]*)\} from '@parl\/core';/g, 'const {$1} = core;');
  expect(body).not.toMatch(/\bimport\b/);
  const printed: string[] = [];
  const fakeConsole = { log: (...args: unknown[]) => printed.push(...format(...args).split('\n')) };
  new Function('core', 'console', body)(core, fakeConsole);
  return printed;
}

describe('docs/core.md', () => {
  it('has snippets', () => {
    expect(snippets.length).toBeGreaterThanOrEqual(10);
  });

  it.each(snippets.map((s, i) => [i + 1, s] as const))('snippet %i prints what its comments say', (_, snippet) => {
    const expected = [...snippet.matchAll(/\/\/ → (.*)$/gm)].map((m) => m[1] as string);
    expect(expected.length).toBeGreaterThan(0);
    expect(run(snippet)).toEqual(expected);
  });
});
