import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyBudget,
  computeReward,
  criticalSteps,
  criticalStepsBatch,
  criticalStepsOfStages,
  heaviestPath,
  parseSchedule,
  rewardBatch,
  REWARD_BATCH_FIELDS,
  CRITICAL_STEPS_BATCH_FIELDS,
  stagesToDag,
  validateStages,
  type RewardConfig,
  type ScheduleSpec,
  type StageRecord,
} from '../src/index.js';

// --- arbitraries ----------------------------------------------------------------------------

const finite = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

/** A training step: small integers (schedule ends and boundaries) or any real up to 10^6. */
const stepArb = fc.oneof(fc.integer({ min: 0, max: 20000 }), finite(0, 1e6));

/** A valid spec of every kind. */
const scheduleArb: fc.Arbitrary<ScheduleSpec> = fc.oneof(
  finite(-10, 10).map((value): ScheduleSpec => ({ kind: 'constant', value })),
  fc
    .tuple(fc.constantFrom('linear' as const, 'cosine' as const), finite(-10, 10), finite(-10, 10), finite(1e-3, 1e5))
    .map(([kind, from, to, steps]): ScheduleSpec => ({ kind, from, to, steps })),
  fc.tuple(finite(1e-6, 10), finite(1e-6, 10), finite(1e-3, 1e5)).map(([from, to, steps]): ScheduleSpec => ({ kind: 'exponential', from, to, steps })),
  fc
    .uniqueArray(fc.integer({ min: 0, max: 20000 }), { maxLength: 5 })
    .chain((bs) => {
      const boundaries = [...bs].sort((a, b) => a - b);
      return fc.array(finite(-10, 10), { minLength: boundaries.length + 1, maxLength: boundaries.length + 1 }).map((values): ScheduleSpec => ({ kind: 'step', values, boundaries }));
    }),
  fc
    .uniqueArray(fc.integer({ min: 0, max: 20000 }), { minLength: 1, maxLength: 6 })
    .chain((xs) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return fc
        .array(finite(-10, 10), { minLength: sorted.length, maxLength: sorted.length })
        .map((ys): ScheduleSpec => ({ kind: 'piecewise', points: sorted.map((x, i) => [x, ys[i] as number] as const) }));
    }),
);

/** Reward options: any schedules, shape, saturation point and, sometimes, a step override. */
const configArb: fc.Arbitrary<RewardConfig> = fc.record(
  {
    lambda1: scheduleArb,
    lambda2: scheduleArb,
    maxSubagents: fc.integer({ min: 1, max: 300 }),
    parallelShape: fc.constantFrom('linear' as const, 'log' as const),
    step: stepArb,
  },
  { requiredKeys: ['maxSubagents', 'parallelShape'] },
);

/** One episode's reward inputs as plain numbers. */
const episodeArb = fc
  .tuple(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 400 }), fc.double({ min: 0, max: 1, noNaN: true }), finite(-1e3, 1e3), stepArb)
  .map(([n, assigned, share, rPerf, step]) => ({ n, assigned, completed: Math.floor(assigned * share), rPerf, step }));

/** Steps that sum exactly (multiples of 1/4 below 100), so differently ordered sums agree bit for bit. */
const quarterArb = fc.integer({ min: 0, max: 400 }).map((q) => q / 4);

/** A ragged staged episode with exact-sum steps. */
const exactStagesArb: fc.Arbitrary<StageRecord[]> = fc.array(
  fc.record({ main_steps: quarterArb, sub_steps: fc.array(quarterArb, { maxLength: 8 }) }),
  { maxLength: 12 },
);

/** A ragged staged episode with arbitrary real steps ≥ 0. */
const realStagesArb: fc.Arbitrary<StageRecord[]> = fc.array(
  fc.record({ main_steps: finite(0, 1e6), sub_steps: fc.array(finite(0, 1e6), { maxLength: 8 }) }),
  { maxLength: 12 },
);

// --- properties -----------------------------------------------------------------------------

describe('reward laws', () => {
  it('rewardBatch equals computeReward one at a time, exactly, in every spec §3 field', () => {
    fc.assert(
      fc.property(fc.array(episodeArb, { maxLength: 20 }), configArb, (episodes, config) => {
        const out = rewardBatch(
          {
            numSubagents: episodes.map((e) => e.n),
            assignedSubtasks: episodes.map((e) => e.assigned),
            completedSubtasks: episodes.map((e) => e.completed),
            rPerf: Float64Array.from(episodes.map((e) => e.rPerf)),
            trainingStep: episodes.map((e) => e.step),
          },
          config,
        );
        episodes.forEach((e, i) => {
          const one = computeReward(
            { num_subagents: e.n, assigned_subtasks: e.assigned, completed_subtasks: e.completed, r_perf: e.rPerf, training_step: e.step },
            config,
          );
          // every field of the breakdown, by its spec name, and nothing else
          expect(Object.keys(one).sort()).toEqual([...REWARD_BATCH_FIELDS].sort());
          for (const field of REWARD_BATCH_FIELDS) expect(out[field][i], field).toBe(one[field]);
        });
      }),
    );
  });

  it('total_reward is the sum of its three components, and the terms stay in range', () => {
    const recordArb = fc.record({
      num_subagents: fc.integer({ min: 0, max: 400 }),
      training_step: stepArb,
      success: fc.boolean(),
      quality: finite(-2, 2),
    });
    fc.assert(
      fc.property(recordArb, configArb, (record, config) => {
        const r = computeReward(record, config);
        expect(r.total_reward).toBe(r.instantiation_component + r.finish_component + r.task_component);
        expect(r.instantiation_component).toBe(r.lambda1 * r.r_parallel);
        expect(r.finish_component).toBe(r.lambda2 * r.r_finish);
        expect(r.task_component).toBe(r.r_perf);
        for (const term of [r.r_parallel, r.r_finish, r.r_perf]) {
          expect(term).toBeGreaterThanOrEqual(0);
          expect(term).toBeLessThanOrEqual(1);
        }
      }),
    );
  });
});

describe('critical-step laws', () => {
  it('criticalStepsBatch equals criticalSteps on ragged random input, exactly', () => {
    const batchArb = fc
      .tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 6 }), fc.boolean())
      .chain(([B, T, N, float32]) =>
        fc.record({
          B: fc.constant(B),
          T: fc.constant(T),
          N: fc.constant(N),
          float32: fc.constant(float32),
          sub: fc.array(finite(0, 1e6), { minLength: B * T * N, maxLength: B * T * N }),
          groups: fc.array(fc.integer({ min: 0, max: N }), { minLength: B * T, maxLength: B * T }),
          mains: fc.array(finite(0, 100), { minLength: B * T, maxLength: B * T }),
          used: fc.array(fc.integer({ min: 0, max: T }), { minLength: B, maxLength: B }),
        }),
      );
    fc.assert(
      fc.property(batchArb, ({ B, T, N, float32, sub, groups, mains, used }) => {
        const subSteps = float32 ? Float32Array.from(sub) : Float64Array.from(sub);
        const out = criticalStepsBatch({ batch: B, stages: T, width: N, subSteps, groupSizes: groups, mainSteps: mains, numStages: used });
        for (let b = 0; b < B; b++) {
          const stages: StageRecord[] = [];
          for (let t = 0; t < (used[b] as number); t++) {
            const k = groups[b * T + t] as number;
            const base = (b * T + t) * N;
            stages.push({ main_steps: mains[b * T + t] as number, sub_steps: Array.from(subSteps.subarray(base, base + k)) });
          }
          const one = criticalSteps(stages);
          // every field of the one-episode result, by its name, and nothing else
          expect(Object.keys(one).sort()).toEqual([...CRITICAL_STEPS_BATCH_FIELDS].sort());
          for (const field of CRITICAL_STEPS_BATCH_FIELDS) expect(out[field][b], field).toBe(one[field]);
        }
      }),
    );
  });

  it("the DAG form's heaviest path equals the staged critical steps", () => {
    fc.assert(
      fc.property(exactStagesArb, (stages) => {
        const dag = heaviestPath(stagesToDag(validateStages(stages)));
        expect(dag.weight).toBe(criticalSteps(stages).critical_steps);
      }),
    );
    fc.assert(
      fc.property(realStagesArb, (stages) => {
        const dag = heaviestPath(stagesToDag(validateStages(stages)));
        const staged = criticalSteps(stages).critical_steps;
        expect(Math.abs(dag.weight - staged)).toBeLessThanOrEqual(1e-12 * Math.max(1, staged));
      }),
    );
  });

  it('critical steps lie between the largest single stage and the total steps; parallelism ≥ 1', () => {
    fc.assert(
      fc.property(realStagesArb, (stages) => {
        const r = criticalSteps(stages);
        for (const s of validateStages(stages)) expect(r.critical_steps).toBeGreaterThanOrEqual(s.main + Math.max(0, ...s.sub));
        expect(r.critical_steps).toBeLessThanOrEqual(r.total_steps);
        expect(r.parallelism).toBeGreaterThanOrEqual(1);
        expect(r.num_stages).toBe(stages.length);
      }),
    );
  });

  it('a budget runs only stages whose cumulative critical steps stay within K', () => {
    fc.assert(
      fc.property(realStagesArb, finite(0, 5e6), (raw, K) => {
        const stages = validateStages(raw);
        const cut = applyBudget(stages, K);
        const ran = criticalStepsOfStages(cut.stages_run).critical_steps;
        expect(ran).toBeLessThanOrEqual(K);
        expect(ran).toBe(cut.critical_steps_run);
        if (cut.within_budget) {
          expect(cut.stages_run).toHaveLength(stages.length);
          expect(cut.budget_cut_stage).toBeNull();
        } else {
          // the cut stage is the first one that would go over
          expect(cut.stages_run).toHaveLength(cut.budget_cut_stage as number);
          expect(criticalStepsOfStages(stages.slice(0, (cut.budget_cut_stage as number) + 1)).critical_steps).toBeGreaterThan(K);
        }
      }),
    );
  });
});

describe('schedule laws', () => {
  /** The step after which a schedule is constant, and the value it holds. */
  function lastOf(spec: ScheduleSpec): [number, number] {
    switch (spec.kind) {
      case 'constant':
        return [0, spec.value];
      case 'linear':
      case 'cosine':
      case 'exponential':
        return [spec.steps, spec.to];
      case 'step':
        return [spec.boundaries.at(-1) ?? 0, spec.values.at(-1) as number];
      case 'piecewise': {
        const last = spec.points.at(-1) as readonly [number, number];
        return [last[0], last[1]];
      }
    }
  }

  it('every schedule holds its last value from its last step on', () => {
    fc.assert(
      fc.property(scheduleArb, finite(0, 1e9), (spec, extra) => {
        const s = parseSchedule(spec);
        const [lastStep, lastValue] = lastOf(spec);
        expect(s.at(lastStep)).toBe(lastValue);
        expect(s.at(lastStep + extra)).toBe(lastValue);
      }),
    );
  });

  it('atMany equals at, and the short form parses back to the same spec', () => {
    fc.assert(
      fc.property(scheduleArb, fc.array(stepArb, { maxLength: 20 }), (spec, steps) => {
        const s = parseSchedule(spec);
        const many = s.atMany(steps);
        steps.forEach((step, i) => expect(many[i]).toBe(s.at(step)));
        expect(parseSchedule(s.toString()).spec).toEqual(s.spec);
      }),
    );
  });
});
