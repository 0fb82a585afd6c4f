import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeRun, EXAMPLES_DIR, runIn } from './support/run-example.js';

describe('examples/core-batch.ts (@parl/core from TypeScript, run with tsx)', () => {
  it('labels a batch one record at a time and as typed arrays, with the same numbers both ways', () => {
    const require = createRequire(join(EXAMPLES_DIR, 'package.json'));
    const tsx = join(dirname(require.resolve('tsx/package.json')), 'dist', 'cli.mjs');
    const result = runIn(process.execPath, [tsx, 'core-batch.ts']);
    expect(result.status, describeRun('tsx core-batch.ts', result)).toBe(0);
    expect(result.stdout).toContain('episodes: 2048');
    expect(result.stdout).toContain('batch equals one-at-a-time: yes');
    const mean = /mean total_reward: (\d+\.\d+)/.exec(result.stdout);
    expect(Number(mean?.[1])).toBeGreaterThan(0);
    expect(result.stdout).toMatch(/mean critical_steps: \d+\.\d\d, mean parallelism: \d+\.\d\dx/);
  });
});
