/**
 * The `@example` blocks of @parl/swarm's doc comments run as written (test support's one extractor
 * and runner, `tsdoc-examples.ts`): each block in a fresh temporary folder, with the package's
 * exports in scope and its imports resolved from here.
 */
import { join } from 'node:path';
import { runTsdocExample, tsdocExamples } from '@parl/test-support/tsdoc-examples';
import { describe, expect, it } from 'vitest';
import * as self from '../src/index.js';

const SRC = join(import.meta.dirname, '..', 'src');
const examples = tsdocExamples(SRC);

describe("@parl/swarm's TSDoc examples run as written", () => {
  it('finds the examples (a broken extractor must not pass by finding none)', () => {
    expect(examples.length).toBeGreaterThan(0);
  });

  it.each(examples.map((e) => [e.where, e] as const))('%s', async (_where, example) => {
    const failures = await runTsdocExample(example, {
      importModule: (specifier) => (specifier === '@parl/swarm' ? Promise.resolve(self) : import(specifier)),
      globals: self,
      fileModule: (file) => import(join(SRC, file)) as Promise<Record<string, unknown>>,
    });
    expect(failures).toEqual([]);
  });
});
