import { describe, expect, it } from 'vitest';
import { describeRun, runNodeExample } from './support/run-example.js';

describe('examples/swarm-agent-app.mjs (SwarmAgent in an AI SDK app)', () => {
  it('streams what the swarm does, then the answer, the record and the reward', () => {
    const result = runNodeExample('swarm-agent-app.mjs');
    expect(result.status, describeRun('node swarm-agent-app.mjs', result)).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('created   worker-'))).toHaveLength(4);
    expect(lines.filter((l) => l.startsWith('started   worker-'))).toHaveLength(4);
    expect(lines.filter((l) => /^finished {2}worker-\d in 3 steps$/.test(l))).toHaveLength(4);
    // Three places for four sub-agents: the fourth starts after one of the first three finished.
    const fourth = lines.findIndex((l) => l.startsWith('started   worker-4'));
    expect(lines.slice(0, fourth).some((l) => l.startsWith('finished'))).toBe(true);
    expect(lines).toContain('stage 0 closed with 4 sub-agent(s)');
    expect(lines.filter((l) => / \| (color|metal) \| /.test(l))).toHaveLength(8);
    expect(lines).toContain('record: 4 sub-agents, critical steps 8, total steps 14, r_perf 1');
    expect(lines.at(-1)).toMatch(/^reward: total 1\.\d{4} \(r_parallel 0\.0400, r_finish 1, r_perf 1\)$/);
  });
});
