/** Spec §5.2: nested sub-agent entries, exact at every depth, validated, and one counting rule. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  criticalSteps,
  criticalStepsBatch,
  criticalStepsBatchInputOf,
  heaviestPath,
  labelReward,
  launchedSubagentsOfRows,
  MAX_NESTING_DEPTH,
  recordFieldHints,
  stagesToDag,
  subagentCounts,
  validateRecord,
  validateStages,
  type StageRecord,
  type SubAgentEntry,
} from '../src/index.js';
import { messageOf } from './support.js';

/** A sub-agent entry, nested up to `depth` levels, with integer steps (exact sums). */
function entryArb(depth: number): fc.Arbitrary<SubAgentEntry> {
  const plain: fc.Arbitrary<SubAgentEntry> = fc.oneof(
    fc.integer({ min: 0, max: 20 }),
    fc.record({ steps: fc.integer({ min: 0, max: 20 }), finished: fc.boolean() }),
  );
  if (depth === 0) return plain;
  return fc.oneof(
    { weight: 3, arbitrary: plain },
    { weight: 1, arbitrary: fc.record({ stages: stagesArb(depth - 1), finished: fc.boolean() }) },
  );
}

function stagesArb(depth: number): fc.Arbitrary<StageRecord[]> {
  return fc.array(fc.record({ main_steps: fc.integer({ min: 0, max: 5 }), sub_steps: fc.array(entryArb(depth), { maxLength: 4 }) }), { maxLength: 4 });
}

/** The flattened reference: critical steps and total steps by the spec's definitions, recursively. */
function reference(stages: readonly StageRecord[]): { critical: number; total: number } {
  let critical = 0;
  let total = 0;
  for (const st of stages) {
    let max = 0;
    let sum = 0;
    for (const e of st.sub_steps ?? []) {
      const r = typeof e === 'number' ? { critical: e, total: e } : 'stages' in e ? reference(e.stages) : { critical: e.steps, total: e.steps };
      max = Math.max(max, r.critical);
      sum += r.total;
    }
    critical += st.main_steps + max;
    total += st.main_steps + sum;
  }
  return { critical, total };
}

describe('nested sub-agent entries (spec §5.2)', () => {
  const nestedStages: StageRecord[] = [
    {
      main_steps: 1,
      sub_steps: [
        3,
        // A sub-agent that ran 2 turns of its own: 1 + max(4, 2) + 1 = 6 critical, 1 + 4 + 2 + 1 = 8 work.
        { stages: [{ main_steps: 1, sub_steps: [4, { steps: 2, finished: false }] }, { main_steps: 1 }], finished: true },
      ],
    },
    { main_steps: 1 },
  ];

  it('contributes its own critical steps to the stage and its total steps to the work', () => {
    const r = criticalSteps(nestedStages);
    expect(r.critical_steps).toBe(1 + 6 + 1);
    expect(r.total_steps).toBe(1 + 3 + 8 + 1);
    expect(r.max_width).toBe(2);
    expect(r.mean_width).toBe(2);
  });

  it('counts the top-level sub-agents only, and their finish flags', () => {
    const counts = subagentCounts({ stages: nestedStages });
    // The inner sub-agent that did not finish is the nested agent's business, not the orchestrator's.
    expect(counts).toEqual({ launched: 2, assigned: 2, completed: 2, finish_rate: 1 });
    expect(subagentCounts({ stages: [{ main_steps: 1, sub_steps: [{ stages: [], finished: false }, 4] }] }).finish_rate).toBe(0.5);
  });

  it('equals the flattened critical and total steps at every depth (property)', () => {
    fc.assert(
      fc.property(stagesArb(4), (stages) => {
        const r = criticalSteps(stages);
        const ref = reference(stages);
        expect(r.critical_steps).toBe(ref.critical);
        expect(r.total_steps).toBe(ref.total);
        // A nested entry equals a plain entry with its own critical steps, for the critical path.
        const flat = stages.map((st) => ({
          main_steps: st.main_steps,
          sub_steps: (st.sub_steps ?? []).map((e) => (typeof e === 'object' && 'stages' in e ? reference(e.stages).critical : e)),
        }));
        expect(criticalSteps(flat).critical_steps).toBe(ref.critical);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with the DAG form and the batch kernel (property)', () => {
    fc.assert(
      fc.property(fc.array(stagesArb(3), { minLength: 1, maxLength: 5 }), (episodes) => {
        const validated = episodes.map((s) => validateStages(s));
        const batch = criticalStepsBatch(criticalStepsBatchInputOf(validated));
        episodes.forEach((stages, b) => {
          const r = criticalSteps(stages);
          const dag = stagesToDag(validated[b]!);
          expect(heaviestPath(dag).weight).toBe(r.critical_steps);
          expect(dag.reduce((sum, n) => sum + n.weight, 0)).toBe(r.total_steps);
          expect(batch.critical_steps[b]).toBe(r.critical_steps);
          expect(batch.total_steps[b]).toBe(r.total_steps);
          expect(batch.parallelism[b]).toBe(r.parallelism);
          expect(batch.max_width[b]).toBe(r.max_width);
        });
      }),
      { numRuns: 200 },
    );
  });

  it('labels idempotently (property)', () => {
    fc.assert(
      fc.property(stagesArb(3), fc.double({ min: 0, max: 1, noNaN: true }), (stages, rPerf) => {
        const once = labelReward({ stages, r_perf: rPerf });
        const twice = labelReward(JSON.parse(JSON.stringify(once)));
        expect(twice).toEqual(once);
      }),
      { numRuns: 200 },
    );
  });

  it('rejects an entry with both steps and stages, naming it', () => {
    expect(messageOf(() => validateRecord({ stages: [{ main_steps: 1, sub_steps: [{ steps: 3, stages: [] }] }] }, 'line 4'))).toBe(
      'line 4: stages[0].sub_steps[0].steps must be absent when stages is given (a sub-agent entry has steps or stages, not both), got 3',
    );
  });

  it('accepts 16 levels of nesting and rejects 17, naming the path', () => {
    const nest = (levels: number): StageRecord[] => {
      let stages: StageRecord[] = [{ main_steps: 1 }];
      for (let i = 0; i < levels; i++) stages = [{ main_steps: 1, sub_steps: [{ stages }] }];
      return stages;
    };
    expect(criticalSteps(nest(MAX_NESTING_DEPTH)).critical_steps).toBe(MAX_NESTING_DEPTH + 1);
    const message = messageOf(() => criticalSteps(nest(MAX_NESTING_DEPTH + 1)));
    expect(message).toMatch(/^stages\[0\]\.sub_steps\[0\](\.stages\[0\]\.sub_steps\[0\]){16}\.stages must be absent: sub-agent entries nest at most 16 levels deep, got /);
  });

  it('names a bad step inside a nested entry by its full path', () => {
    expect(messageOf(() => criticalSteps([{ main_steps: 1, sub_steps: [{ stages: [{ main_steps: -1 }] }] }]))).toBe(
      'stages[0].sub_steps[0].stages[0].main_steps must be a finite number ≥ 0, got -1',
    );
  });

  it('hints at a misspelt field inside a nested entry', () => {
    const hints = recordFieldHints({ stages: [{ main_steps: 1, sub_steps: [{ stages: [{ main_step: 1 }] }] }] });
    expect(hints.map((h) => h.message)).toEqual(['stages[0].sub_steps[0].stages[0].main_step: did you mean main_steps?']);
  });
});

describe('the one launched/finish-rate rule', () => {
  it('mixes plain numbers and {steps, finished} entries: a plain number counts as finished', () => {
    expect(subagentCounts({ stages: [{ main_steps: 1, sub_steps: [2, { steps: 3, finished: false }, { steps: 1, finished: true }] }] })).toEqual({
      launched: 3,
      assigned: 3,
      completed: 2,
      finish_rate: 2 / 3,
    });
  });

  it('has no finish rate when no sub-agent was launched', () => {
    expect(subagentCounts({ stages: [{ main_steps: 3 }] })).toEqual({ launched: 0, assigned: 0, completed: 0, finish_rate: null });
    expect(subagentCounts({ r_perf: 1 }).finish_rate).toBeNull();
  });

  it('takes given counts over counted ones', () => {
    expect(subagentCounts({ num_subagents: 5, assigned_subtasks: 4, completed_subtasks: 1 })).toEqual({ launched: 5, assigned: 4, completed: 1, finish_rate: 0.25 });
  });

  it('counts launched sub-agents of columnar rows from offsets, as the record rule does', () => {
    // Row 0: stages 0..2 with groups [2, 0]; row 1: stage 2 with a group of 3.
    expect([...launchedSubagentsOfRows([0, 2, 3], [0, 2, 2, 5])]).toEqual([2, 3]);
    expect(messageOf(() => launchedSubagentsOfRows([0, 4], [0, 1]))).toMatch(/^rowStart\[1\] must be an offset between 0 and 1/);
  });
});

describe('the batch kernel with nested entries', () => {
  it('refuses work below an entry\'s critical steps, naming the cell', () => {
    expect(
      messageOf(() => criticalStepsBatch({ batch: 1, stages: 1, width: 1, subSteps: new Float64Array([5]), subWork: new Float64Array([4]) })),
    ).toBe("subWork[0, 0, 0] must be at least the entry's critical steps subSteps[0, 0, 0] (5), got 4");
  });
});
