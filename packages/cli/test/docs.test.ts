import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../src/program.js';
import { memoryIo } from './support/memory-io.js';

const DOCS = fileURLToPath(new URL('../../../docs/cli.md', import.meta.url));

/** The ```text block right after `<!-- help: NAME -->` in docs/cli.md. */
function helpBlock(docs: string, name: string): string | undefined {
  const marker = `<!-- help: ${name} -->`;
  const at = docs.indexOf(marker);
  if (at < 0) return undefined;
  const m = /^\s*```text\n([\s\S]*?)```/.exec(docs.slice(at + marker.length));
  return m?.[1];
}


describe('docs/cli.md', () => {
  const docs = readFileSync(DOCS, 'utf8');
  const program = buildProgram(memoryIo().io);

  it('quotes `parl --help` exactly', () => {
    expect(helpBlock(docs, 'parl')).toBe(program.helpInformation());
  });

  for (const command of program.commands) {
    const name = `parl ${command.name()}`;
    it(`has a section for ${name} that quotes its --help exactly, and an example`, () => {
      expect(docs).toContain(`\n## ${name}\n`);
      expect(helpBlock(docs, name), `docs/cli.md has no <!-- help: ${name} --> block`).toBe(command.helpInformation());
      const section = docs.slice(docs.indexOf(`\n## ${name}\n`)).split(/\n## /)[1] ?? '';
      expect(section).toMatch(new RegExp('```sh\\n(?:.*\\n)*?.*' + name.replace(' ', ' ')));
    });
  }

  it('documents no command or flag that the CLI lacks', () => {
    const commands = new Set(program.commands.map((c) => `parl ${c.name()}`));
    for (const m of docs.matchAll(/^## (parl [a-z-]+)$/gm)) expect(commands, m[1]).toContain(m[1]);
    const flags = new Set(['--help', '--version', ...program.commands.flatMap((c) => c.options.map((o) => o.long ?? ''))]);
    for (const m of docs.matchAll(/`(--[a-z][a-z0-9-]*)/g)) expect(flags, m[1]).toContain(m[1]);
  });
});
