import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { writeTinyGguf } from '@parl/test-support/local-llm/tiny-model';
import { makeTempDir } from '@parl/test-support/temp-dir';
import { describe, expect, it } from 'vitest';
import { describeRun, EXAMPLES_DIR, runIn } from './support/run-example.js';

describe('examples/swarm-local.mjs (the orchestrator on a local model file)', () => {
  it('runs episodes on the tiny model and prints each one\'s critical steps and reward', async () => {
    const dir = await makeTempDir('example-swarm');
    try {
      const model = await writeTinyGguf(join(dir.path, 'tiny.gguf'));
      // tsx: the endpoint comes from the workspace's test support, TypeScript sources.
      const tsx = join(dirname(createRequire(join(EXAMPLES_DIR, 'package.json')).resolve('tsx/package.json')), 'dist', 'cli.mjs');
      const result = runIn(process.execPath, [tsx, 'swarm-local.mjs', model.path, '2']);
      expect(result.status, describeRun('node swarm-local.mjs', result)).toBe(0);
      expect(result.stdout).toContain('model tiny.gguf on http://127.0.0.1:');
      const lines = result.stdout.split('\n').filter((l) => l.startsWith('wide-s1-'));
      expect(lines).toHaveLength(2);
      for (const l of lines) expect(l).toMatch(/: (answer|orchestrator_steps), sub-agents \d+, critical steps \d+ \(total \d+\), r_perf \d\.\d{3}, reward -?\d+\.\d{4}$/);
    } finally {
      await dir.remove();
    }
  }, 240_000);
});
