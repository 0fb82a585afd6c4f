// Rewrite the ```text block after each `<!-- help: parl X -->` marker in docs/cli.md with the
// CLI's current --help output (from dist; build first). test/docs.test.ts fails until this is run
// after a flag changes. Usage: node scripts/sync-docs-help.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { buildProgram } from '../dist/run-cli.js';

const docsPath = fileURLToPath(new URL('../../../docs/cli.md', import.meta.url));
const sink = new Writable({ write: (_c, _e, done) => done() });
const program = buildProgram({ stdin: process.stdin, stdout: sink, stderr: sink, stderrIsTTY: false });
const helpOf = (name) => {
  if (name === 'parl') return program.helpInformation();
  const cmd = program.commands.find((c) => `parl ${c.name()}` === name);
  if (cmd === undefined) throw new Error(`docs/cli.md mentions ${name}, which the CLI lacks`);
  return cmd.helpInformation();
};
const docs = readFileSync(docsPath, 'utf8');
const next = docs.replace(/<!-- help: (parl[a-z -]*?) -->\s*```text\n[\s\S]*?```/g, (_m, name) => `<!-- help: ${name} -->\n\n\`\`\`text\n${helpOf(name)}\`\`\``);
writeFileSync(docsPath, next);
console.log(next === docs ? 'docs/cli.md already up to date' : 'docs/cli.md help blocks updated');
