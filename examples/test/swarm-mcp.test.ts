import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { writeTinyGguf } from '@parl/test-support/local-llm/tiny-model';
import { makeTempDir } from '@parl/test-support/temp-dir';
import { describe, expect, it } from 'vitest';
import { describeRun, EXAMPLES_DIR, runIn } from './support/run-example.js';

describe('examples/swarm-mcp.mjs (parl swarm run with stdio and HTTP MCP servers)', () => {
  it('runs an episode with each server\'s tools and prints its record', async () => {
    const dir = await makeTempDir('example-swarm-mcp');
    try {
      const model = await writeTinyGguf(join(dir.path, 'tiny.gguf'));
      const tsx = join(dirname(createRequire(join(EXAMPLES_DIR, 'package.json')).resolve('tsx/package.json')), 'dist', 'cli.mjs');
      const result = runIn(process.execPath, [tsx, 'swarm-mcp.mjs', model.path, '1']);
      expect(result.status, describeRun('node swarm-mcp.mjs', result)).toBe(0);
      expect(result.stdout).toMatch(/--mcp stdio: exit 0; parl swarm run: 1 episodes;/);
      expect(result.stdout).toMatch(/--mcp http: exit 0; parl swarm run: 1 episodes;/);
      expect(result.stdout.match(/deep-s1-0\/rollout-0: \w+, critical steps \d+, tool_errors \d+/g)).toHaveLength(2);
    } finally {
      await dir.remove();
    }
  }, 240_000);
});
