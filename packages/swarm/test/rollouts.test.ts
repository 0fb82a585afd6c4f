import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { grpoAdvantages } from '@parl/core';
import { makeTempDir } from '@parl/test-support/temp-dir';
import { describe, expect, it } from 'vitest';
import { generateSuite, type RolloutLine } from '../src/index.js';
import { runRollouts } from '../src/rollouts/run-rollouts.js';
import { orchestratorFrom, settingsWith, toolTexts } from './support.js';

/** An orchestrator that delegates the first `k` rows then answers with what came back: different rewards per sample. */
function orchestrator() {
  let episode = -1;
  return orchestratorFrom((_n, options) => {
    const user = options.prompt.find((m) => m.role === 'user');
    const prompt = user?.role === 'user' && user.content[0]?.type === 'text' ? user.content[0].text : '';
    const entities = prompt.match(/entities (.*), give/)?.[1]?.split(', ') ?? [];
    const attribute = prompt.match(/give its (\w+)\./)?.[1] ?? '';
    const turn = options.prompt.filter((m) => m.role === 'assistant').length;
    if (turn === 0) episode++;
    if (turn === 0) return [['create_subagent', { name: 'l', system_prompt: 's' }]];
    if (turn === 1) return entities.slice(0, 1 + (episode % 3)).map((e) => ['assign_task', { agent: 'l', prompt: `Find the ${attribute} of ${e}.` }] as const);
    return toolTexts(options).filter((t) => t.includes('|')).join('\n');
  });
}

describe('runRollouts', () => {
  const tasks = generateSuite('wide', { tasks: 2, seed: 5, entities: 3, attributes: 1 });

  it('writes tasks × group_size lines with group_id, sample, GRPO advantage, reward fields and messages', async () => {
    const dir = await makeTempDir('swarm-rollouts');
    try {
      const out = join(dir.path, 'rollouts.jsonl');
      const progress: number[] = [];
      const lines: RolloutLine[] = [];
      const summary = await runRollouts(tasks, settingsWith({ orchestrator: orchestrator() }), { groupSize: 3, out, onProgress: (d) => void progress.push(d), onLine: (l) => void lines.push(l) });
      expect(summary).toMatchObject({ episodes: 6, ran: 6, resumed: 0 });
      expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
      const written = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(written).toEqual(JSON.parse(JSON.stringify(lines)));
      expect(written.map((l) => [l['group_id'], l['sample']])).toEqual([
        [tasks[0]?.id, 0], [tasks[0]?.id, 1], [tasks[0]?.id, 2], [tasks[1]?.id, 0], [tasks[1]?.id, 1], [tasks[1]?.id, 2],
      ]);
      for (const group of [written.slice(0, 3), written.slice(3)]) {
        expect(group.map((l) => l['advantage'])).toEqual(grpoAdvantages(group.map((l) => l['total_reward'] as number)));
        // Samples differ in how many rows they delegated, so their rewards differ.
        expect(new Set(group.map((l) => l['total_reward'])).size).toBe(3);
      }
      for (const l of written) {
        expect(l).toMatchObject({ training_step: 0, lambda1: 0.1 });
        expect((l['messages'] as { role: string }[])[0]?.role).toBe('system');
      }
    } finally {
      await dir.remove();
    }
  });

  it('resumes: finished samples in the partial file are not run again, and a cut last line is ignored', async () => {
    const dir = await makeTempDir('swarm-rollouts');
    try {
      const out = join(dir.path, 'r.jsonl');
      const first = orchestrator();
      const full: RolloutLine[] = [];
      await runRollouts(tasks.slice(0, 1), settingsWith({ orchestrator: first }), { groupSize: 2, onLine: (l) => void full.push(l) });
      // As if a run died after its first sample, in the middle of writing its second.
      const { advantage: _a, ...sample0 } = full[0] as Record<string, unknown>;
      await writeFile(`${out}.partial`, `${JSON.stringify(sample0)}\n{"group_id":"cut`);
      const second = orchestrator();
      const lines: RolloutLine[] = [];
      const summary = await runRollouts(tasks.slice(0, 1), settingsWith({ orchestrator: second }), { groupSize: 2, out, onLine: (l) => void lines.push(l) });
      expect(summary).toMatchObject({ episodes: 2, ran: 1, resumed: 1 });
      expect(lines.map((l) => l.sample)).toEqual([0, 1]);
      expect(lines[0]?.['stages']).toEqual(sample0['stages']);
      // Only sample 1 ran: one episode of three orchestrator calls.
      expect(second.doGenerateCalls).toHaveLength(3);
      await expect(readFile(`${out}.partial`)).rejects.toThrow(/ENOENT/);
    } finally {
      await dir.remove();
    }
  });
});
