/**
 * The scripted orchestrators (`--model scripted:<policy>`): what each does on the built-in
 * suites, read from the records they produce with the scripted look-up sub-agents — no endpoint.
 */
import { criticalSteps, ParlInputError } from '@parl/core';
import { readTraces } from '@parl/traces';
import { describe, expect, it } from 'vitest';
import { generateSuite, runEpisode, scriptedLookupModel, scriptedOrchestrator, swarmEval, SWARM_EVAL_OPTIONS, type SwarmTask } from '../src/index.js';
import { resolveOptions } from '@parl/core';
import { memoryTracing, numbersOf, readBack, settingsWith } from './support.js';

const [wide] = generateSuite('wide', { tasks: 1, seed: 4 }) as [SwarmTask];
const [deep] = generateSuite('deep', { tasks: 1, seed: 4 }) as [SwarmTask];
const n = 6; // entities of a default wide task

async function episode(task: SwarmTask, policy: 'parallel' | 'serial' | 'spurious' | 'single', singleAgent = false) {
  const tracing = memoryTracing();
  const out = await runEpisode(task, settingsWith({ orchestrator: scriptedOrchestrator(policy), subagentModel: scriptedLookupModel(), tracer: tracing.tracer, singleAgent }));
  const json = tracing.otlpJson();
  const back = await readBack(json);
  expect(back.numbers).toEqual(numbersOf(out.record));
  const findings = [];
  for await (const r of readTraces([json], { onWarning: () => {} })) findings.push(r.finding);
  return { ...out, finding: findings[0] as { serial_collapse: boolean } };
}

describe('scripted orchestrators on a wide task', () => {
  it('parallel: one turn launches a sub-agent per entity, all at once; the answer is complete', async () => {
    const { record, finding } = await episode(wide, 'parallel');
    expect(record.stages).toEqual([{ main_steps: 1, sub_steps: Array.from({ length: n }, () => ({ steps: 3, finished: true })) }, { main_steps: 1, sub_steps: [] }]);
    expect(record.r_perf).toBe(1);
    expect(numbersOf(record)).toEqual({ critical_steps: 5, total_steps: 2 + 3 * n, num_subagents: n });
    expect(finding.serial_collapse).toBe(false);
  });

  it('serial: one sub-agent per turn, which parl trace names serial collapse', async () => {
    const { record, finding } = await episode(wide, 'serial');
    expect(record.stages).toHaveLength(n + 1);
    expect(record.r_perf).toBe(1);
    expect(numbersOf(record)).toEqual({ critical_steps: 4 * n + 1, total_steps: 4 * n + 1, num_subagents: n });
    expect(finding.serial_collapse).toBe(true);
  });

  it('spurious: twice as many sub-agents as entities, each on the whole task, in waves of the concurrency', async () => {
    const { record } = await episode(wide, 'spurious');
    expect(record.num_subagents).toBe(2 * n);
    expect(record.r_perf).toBe(1);
    // 12 sub-agents of 3 steps, 8 at a time: two waves.
    expect(numbersOf(record).critical_steps).toBe(1 + 6 + 1);
  });

  it('single: never delegates, one tool call per turn: a search and an open per entity', async () => {
    const { record } = await episode(wide, 'single');
    expect(record.num_subagents).toBe(0);
    expect(record.r_perf).toBe(1);
    expect(numbersOf(record).critical_steps).toBe(2 * n + 1);
  });

  it('without assign_task among its tools every policy acts as single', async () => {
    for (const policy of ['parallel', 'serial', 'spurious'] as const) {
      const { record } = await episode(wide, policy, true);
      expect(record.num_subagents).toBe(0);
      expect(numbersOf(record).critical_steps).toBe(2 * n + 1);
      expect(record.r_perf).toBe(1);
    }
  });
});

describe('scripted orchestrators on a deep task', () => {
  it('follow the chain themselves and reach the right answer; spurious first spawns sub-agents that cannot help', async () => {
    for (const policy of ['parallel', 'serial', 'single'] as const) {
      const { record } = await episode(deep, policy);
      expect(record.r_perf).toBe(1);
      expect(record.num_subagents).toBe(0);
      expect(numbersOf(record).critical_steps).toBe(2 * 5 + 1);
    }
    const { record } = await episode(deep, 'spurious');
    expect(record.r_perf).toBe(1);
    expect(record.num_subagents).toBe(8);
  });
});

describe('parl swarm eval with a scripted orchestrator, no endpoint', () => {
  const options = (flags: Record<string, string>) => resolveOptions(SWARM_EVAL_OPTIONS, flags, 'flag');

  it('scripted:parallel beats the single agent in latency to target at every target', async () => {
    const evaluation = await swarmEval(options({ model: 'scripted:parallel', tasks: '4' }));
    expect(evaluation.swarm.r_perf).toBe(1);
    expect(evaluation.single_agent.r_perf).toBe(1);
    for (const row of evaluation.latency_to_target) {
      expect(row.swarm).not.toBeNull();
      expect(row.single_agent).not.toBeNull();
      expect(row.swarm as number).toBeLessThan(row.single_agent as number);
    }
    expect(criticalSteps(evaluation.records.swarm[0]?.stages ?? []).critical_steps).toBe(5);
  });

  it('scripted:serial is slower than the single agent: the collapse shows in the latency', async () => {
    const evaluation = await swarmEval(options({ model: 'scripted:serial', tasks: '2' }));
    for (const row of evaluation.latency_to_target) expect(row.swarm as number).toBeGreaterThan(row.single_agent as number);
  });

  it('a model on an endpoint without --base-url is one error naming the flag; an unknown scripted name names --model', async () => {
    await expect(swarmEval(options({ model: 'qwen3-4b', tasks: '1' }))).rejects.toThrow(ParlInputError);
    await expect(swarmEval(options({ model: 'qwen3-4b', tasks: '1' }))).rejects.toThrow(/--base-url/);
    expect(() => options({ model: 'scripted:fast' })).toThrow(/--model.*scripted:parallel/);
    expect(() => options({ model: 'scripted:parallel', 'subagent-model': 'scripted:parallel' })).toThrow(/--subagent-model.*scripted:lookup/);
  });
});
