import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeRun, EXAMPLES_DIR, runIn } from './support/run-example.js';

describe('examples/swarm-mcp.mjs --scripted (parl swarm run with stdio and HTTP MCP servers)', () => {
  it('the orchestrator calls each server\'s capital tool and the tool\'s result is in the record\'s transcript', () => {
    const tsx = join(dirname(createRequire(join(EXAMPLES_DIR, 'package.json')).resolve('tsx/package.json')), 'dist', 'cli.mjs');
    const result = runIn(process.execPath, [tsx, 'swarm-mcp.mjs', '--scripted', '1']);
    expect(result.status, describeRun('node swarm-mcp.mjs --scripted', result)).toBe(0);
    expect(result.stdout).toMatch(/--mcp stdio: exit 0; parl swarm run: 1 episodes;/);
    expect(result.stdout).toMatch(/--mcp http: exit 0; parl swarm run: 1 episodes;/);
    // Each run's record: the MCP server's answer (Tokyo) came back as the `tool` message, no tool error.
    expect(result.stdout.match(/deep-s1-0\/rollout-0: answer, critical steps \d+, tool_errors 0; tool results: \["Tokyo"\]/g)).toHaveLength(2);
  }, 120_000);
});
