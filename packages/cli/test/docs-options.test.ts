import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { docsOptionTables, withOptionTables } from '../src/docs-option-tables.js';

const TABLES = await docsOptionTables();
const DOCS = [...new Set(TABLES.map((t) => t.doc))];

describe("the docs' option tables", () => {
  it('cover the reward, critical-steps, trace, serve and swarm options and the reward query, and the trace formats', () => {
    expect(TABLES.map((t) => `${t.doc}#${t.name}`)).toEqual([
      'docs/cli.md#reward',
      'docs/cli.md#critical-steps',
      'docs/cli.md#trace',
      'docs/cli.md#serve',
      'docs/serve.md#serve',
      'docs/serve.md#reward-query',
      'docs/traces.md#trace-library',
      'docs/traces.md#trace',
      'docs/traces.md#trace-formats',
      'docs/swarm.md#swarm-run',
      'docs/swarm.md#swarm-eval',
    ]);
  });

  it.each(DOCS)('%s holds the tables the option declarations give (run node packages/cli/scripts/sync-docs-options.mjs after a build)', async (doc) => {
    const text = readFileSync(fileURLToPath(new URL(`../../../${doc}`, import.meta.url)), 'utf8');
    expect(await withOptionTables(doc, text)).toBe(text);
  });

  it('finds a stale table, and a missing marker', async () => {
    const table = TABLES.find((t) => t.name === 'reward-query');
    const stale = `<!-- options: reward-query -->\n| parameter | default | what it does |\n<!-- /options: reward-query -->\n`;
    expect(await withOptionTables('docs/serve.md', `<!-- options: serve -->\n<!-- /options: serve -->\n${stale}`)).toContain(table?.markdown);
    await expect(withOptionTables('docs/serve.md', stale)).rejects.toThrow('docs/serve.md has no <!-- options: serve --> … <!-- /options: serve --> markers');
  });
});
