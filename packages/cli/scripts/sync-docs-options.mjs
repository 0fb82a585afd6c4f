// Rewrite the option tables between `<!-- options: NAME -->` and `<!-- /options: NAME -->` in
// docs/cli.md, docs/serve.md, docs/traces.md and docs/swarm.md from the option declarations (from dist; build
// first). test/docs-options.test.ts fails until this is run after an option changes.
// Usage: node scripts/sync-docs-options.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withOptionTables } from '../dist/run-cli.js';

for (const doc of ['docs/cli.md', 'docs/serve.md', 'docs/traces.md', 'docs/swarm.md']) {
  const path = fileURLToPath(new URL(`../../../${doc}`, import.meta.url));
  const text = readFileSync(path, 'utf8');
  const next = await withOptionTables(doc, text);
  if (next !== text) writeFileSync(path, next);
  console.log(next === text ? `${doc} already up to date` : `${doc} option tables updated`);
}
