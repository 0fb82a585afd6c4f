import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readTraces } from '@parl/traces';
import { makeTempDir } from '@parl/test-support/temp-dir';
import { describe, expect, it } from 'vitest';
import { swarmEval, swarmRun, SWARM_EVAL_OPTIONS, SWARM_RUN_OPTIONS, type RolloutLine } from '../src/index.js';
import { resolveOptions } from '@parl/core';
import { numbersOf, orchestratorFrom, toolTexts } from './support.js';

/** An orchestrator that delegates each row to its own sub-agent in one turn, or (single agent) answers after one search. */
function delegating() {
  return orchestratorFrom((_n, options) => {
    const user = options.prompt.find((m) => m.role === 'user');
    const prompt = user?.role === 'user' && user.content[0]?.type === 'text' ? user.content[0].text : '';
    const entities = prompt.match(/entities (.*), give/)?.[1]?.split(', ') ?? [];
    const attribute = prompt.match(/give its (.*?)\. The corpus/)?.[1] ?? '';
    const turn = options.prompt.filter((m) => m.role === 'assistant').length;
    const single = !(options.tools ?? []).some((t) => t.name === 'assign_task');
    if (single) return turn === 0 ? [['search', { query: entities[0] ?? '' }]] : 'no idea';
    if (turn === 0) return [['create_subagent', { name: 'l', system_prompt: 's' }]];
    if (turn === 1) return entities.map((e) => ['assign_task', { agent: 'l', prompt: `Find the ${attribute} of ${e}.` }] as const);
    return toolTexts(options).filter((t) => t.includes('|')).join('\n');
  });
}

describe('swarmRun and swarmEval (the commands\' jobs)', () => {
  it('swarmRun writes rollout lines and a spans file that parl trace reads back to the same numbers', async () => {
    const dir = await makeTempDir('swarm-jobs');
    try {
      const out = join(dir.path, 'r.jsonl');
      const spans = join(dir.path, 'spans.jsonl');
      const options = resolveOptions(SWARM_RUN_OPTIONS, { 'base-url': 'http://127.0.0.1:9/v1', model: 'm', subagents: 'scripted', tasks: '2', 'group-size': '2', out, spans }, 'flag');
      const orchestrator = delegating();
      const lines: RolloutLine[] = [];
      const summary = await swarmRun(options, { models: () => orchestrator, onLine: (l) => void lines.push(l) });
      expect(summary).toMatchObject({ episodes: 4, ran: 4, r_perf: 1 });
      expect(lines).toHaveLength(4);
      const back = [];
      for await (const r of readTraces([await readFile(spans, 'utf8')], { onWarning: () => {} })) back.push(r.record);
      expect(back).toHaveLength(4);
      const live = lines.map((l) => numbersOf(l));
      expect(back.map((r) => numbersOf(r))).toEqual(live);
      expect(live[0]).toEqual({ critical_steps: 6, total_steps: 3 + 6 * 3, num_subagents: 6 });
      expect((await readFile(out, 'utf8')).trim().split('\n')).toHaveLength(4);
      expect(lines.map((l) => l['r_perf'])).toEqual([1, 1, 1, 1]);
    } finally {
      await dir.remove();
    }
  });

  it('swarmEval gives latency to target for the swarm and the single agent', async () => {
    const options = resolveOptions(SWARM_EVAL_OPTIONS, { 'base-url': 'http://127.0.0.1:9/v1', model: 'm', subagents: 'scripted', tasks: '2', targets: '0.5,1' }, 'flag');
    const orchestrator = delegating();
    const evaluation = await swarmEval(options, { models: () => orchestrator });
    expect(evaluation.swarm).toEqual({ graded: 2, failed: 0, r_perf: 1, critical_steps: 6, subagents: 6, finish_rate: 1 });
    expect(evaluation.single_agent).toEqual({ graded: 2, failed: 0, r_perf: 0, critical_steps: 2, subagents: 0, finish_rate: null });
    expect(evaluation.latency_to_target).toEqual([
      { target: 0.5, swarm: 6, single_agent: null },
      { target: 1, swarm: 6, single_agent: null },
    ]);
    expect(evaluation.swarm_spans).toHaveLength(2);
  });

  it('rejects a bad flag with a one-line error naming it', () => {
    expect(() => resolveOptions(SWARM_RUN_OPTIONS, { 'base-url': 'ftp://x', model: 'm' }, 'flag')).toThrow(/--base-url/);
    expect(() => resolveOptions(SWARM_RUN_OPTIONS, { 'base-url': 'http://x', model: 'm', concurency: '2' }, 'flag')).toThrow(/did you mean --concurrency/);
    expect(() => resolveOptions(SWARM_RUN_OPTIONS, { 'base-url': 'http://x', model: 'm', limits: 'huge' }, 'flag')).toThrow(/one of default, browsecomp, widesearch/);
  });
});
