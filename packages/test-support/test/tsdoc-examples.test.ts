/**
 * The one runner of `@example` blocks (`tsdoc-examples.ts`): its assertions bite, imports and
 * names in scope resolve; and test support's own examples run as written (each in a fresh
 * temporary folder, the exports of its own file in scope: test support has no index).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTsdocExample, tsdocExamples, type TsdocExample } from '../src/tsdoc-examples.js';

const SRC = join(import.meta.dirname, '..', 'src');
const examples = tsdocExamples(SRC);
const block = (code: string): TsdocExample => ({ file: 'x.ts', path: join(SRC, 'x.ts'), where: 'x.ts:1', code });
const scope = { importModule: (specifier: string) => import(specifier) as Promise<unknown> };

describe('runTsdocExample', () => {
  it('checks `expr; // value` and `// throws: …` lines, and leaves prose comments alone', async () => {
    expect(await runTsdocExample(block('1 + 1; // 2\nMath.max(1, 3); // 3 (the larger)\n[1].length; // one element'), scope)).toEqual([]);
    expect(await runTsdocExample(block('1 + 1; // 3'), scope)).toEqual(['1 + 1 gave 2, the example says 3']);
    expect(await runTsdocExample(block("JSON.parse('{');\n// throws: JSON"), scope)).toEqual([]);
    expect(await runTsdocExample(block("JSON.parse('{}');\n// throws: JSON"), scope)).toEqual(["JSON.parse('{}') did not throw, the example says it throws JSON"]);
  });

  it('resolves imports through importModule, gives names in scope, shadowing allowed, and runs in a temporary folder', async () => {
    const code = ["import { basename } from 'node:path';", "import { writeFileSync } from 'node:fs';", "writeFileSync('here.txt', 'x');", 'basename(process.cwd()).startsWith("parl-example-"); // true', 'answer; // 42', 'const given = 1;', 'given; // 1'].join('\n');
    expect(await runTsdocExample(block(code), { ...scope, globals: { answer: 42, given: 0 } })).toEqual([]);
    await expect(runTsdocExample(block('missing;'), scope)).rejects.toThrow(/missing is not defined/);
  });

  it('finds the examples of a source folder (a broken extractor must not pass by finding none)', () => {
    expect(examples.length).toBeGreaterThan(0);
    expect(examples.filter((e) => e.code.trim() === '' || !/^[\w/.-]+\.ts:\d+$/.test(e.where))).toEqual([]);
  });
});

describe("@parl/test-support's TSDoc examples run as written", () => {
  it.each(examples.map((e) => [e.where, e] as const))('%s', async (_where, example) => {
    const failures = await runTsdocExample(example, { ...scope, fileModule: (file) => import(join(SRC, file)) as Promise<Record<string, unknown>> });
    expect(failures).toEqual([]);
  });
});
