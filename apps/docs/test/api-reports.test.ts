import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script of the repository, without type declarations
import { checkApiReport, publishedPackageDirs } from '../../../scripts/api-report.mjs';

type Check = (dir: string, update: boolean) => { dir: string; changed: boolean; errors: string[] };

/**
 * Every published package's public surface equals its committed API report
 * (packages/NAME/api/NAME.api.md): an exported name added, removed or changed is a visible diff
 * in review, never an accident. After an intended change: node scripts/api-report.mjs --update.
 */
describe('the public surface of each published package', () => {
  const dirs = (publishedPackageDirs as () => string[])();
  it.each(dirs)('@parl/%s matches packages/%s/api/*.api.md', (dir) => {
    const result = (checkApiReport as Check)(dir, false);
    expect(result.errors).toEqual([]);
    expect(result.changed, `the public surface of @parl/${dir} changed: run node scripts/api-report.mjs --update and review the diff`).toBe(false);
  }, 120_000);
});
