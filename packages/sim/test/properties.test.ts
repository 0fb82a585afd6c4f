import { criticalSteps, validateRecord } from '@parl/core';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { SwarmBatch, episodeSeeds, resolveEnvConfig, runEpisodes } from '../src/index.js';
import { allocateActionBatch } from '../src/internal/engine/action-batch.js';
import { randomPolicy } from './random-policy.js';

const envArb = fc.record({
  family: fc.constantFrom('wide' as const, 'deep' as const, 'mixed' as const),
  budget: fc.option(fc.integer({ min: 5, max: 150 }), { nil: null }),
  onBudget: fc.constantFrom('fail' as const, 'truncate' as const),
  maxSubagentsPerGroup: fc.integer({ min: 1, max: 100 }),
  subagentStepLimit: fc.integer({ min: 5, max: 100 }),
});

describe('laws of the simulator', () => {
  it('a batch gives the same records as one episode at a time, for any environment and seed', () => {
    fc.assert(
      fc.property(envArb, fc.integer(), fc.integer({ min: 2, max: 17 }), (partial, seed, batchSize) => {
        const env = resolveEnvConfig(partial);
        const seeds = Array.from({ length: 12 }, (_, i) => episodeSeeds(seed, i));
        const one = runEpisodes(env, randomPolicy, seeds, { greedy: false, batchSize: 1 });
        const many = runEpisodes(env, randomPolicy, seeds, { greedy: false, batchSize });
        return JSON.stringify(one) === JSON.stringify(many);
      }),
      { numRuns: 40 },
    );
  });

  it('records are valid, their critical steps equal the clock, and nothing is solved twice', () => {
    fc.assert(
      fc.property(envArb, fc.integer(), (partial, seed) => {
        const env = resolveEnvConfig(partial);
        const n = 10;
        const engine = new SwarmBatch(env, n, { recordStages: true });
        const actions = allocateActionBatch(n);
        for (let b = 0; b < n; b++) {
          const s = episodeSeeds(seed, b);
          engine.reset(b, s.taskSeed, s.episodeSeed);
        }
        for (;;) {
          const { list, length } = engine.activeList(n);
          if (length === 0) break;
          randomPolicy.act(engine, list, length, false, actions);
          engine.step(list, length, actions);
        }
        for (let b = 0; b < n; b++) {
          const stages = engine.logs?.[b] ?? [];
          if (criticalSteps(stages).critical_steps !== engine.clock[b]) return false;
          validateRecord({ stages, r_perf: engine.rPerf[b] });
          const base = b * engine.maxSubtasks;
          for (let i = 0; i < (engine.subtasks[b] as number); i++) if ((engine.solvedTimes[base + i] as number) > 1) return false;
          if (!((engine.rPerf[b] as number) >= 0 && (engine.rPerf[b] as number) <= 1)) return false;
        }
        return true;
      }),
      { numRuns: 40 },
    );
  });
});
