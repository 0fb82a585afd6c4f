import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { docsOptionTables, withOptionTables } from '../src/docs-option-tables.js';

const DOCS = [...new Set(docsOptionTables().map((t) => t.doc))];

describe("the docs' option tables", () => {
  it('cover the reward, critical-steps, trace and serve options and the reward query', () => {
    expect(docsOptionTables().map((t) => `${t.doc}#${t.name}`)).toEqual([
      'docs/cli.md#reward',
      'docs/cli.md#critical-steps',
      'docs/cli.md#trace',
      'docs/cli.md#serve',
      'docs/serve.md#serve',
      'docs/serve.md#reward-query',
      'docs/traces.md#trace-library',
      'docs/traces.md#trace',
    ]);
  });

  it.each(DOCS)('%s holds the tables the option declarations give (run node packages/cli/scripts/sync-docs-options.mjs after a build)', (doc) => {
    const text = readFileSync(fileURLToPath(new URL(`../../../${doc}`, import.meta.url)), 'utf8');
    expect(withOptionTables(doc, text)).toBe(text);
  });

  it('finds a stale table, and a missing marker', () => {
    const table = docsOptionTables().find((t) => t.name === 'reward-query');
    const stale = `<!-- options: reward-query -->\n| parameter | default | what it does |\n<!-- /options: reward-query -->\n`;
    expect(withOptionTables('docs/serve.md', `<!-- options: serve -->\n<!-- /options: serve -->\n${stale}`)).toContain(table?.markdown);
    expect(() => withOptionTables('docs/serve.md', stale)).toThrow('docs/serve.md has no <!-- options: serve --> … <!-- /options: serve --> markers');
  });
});
