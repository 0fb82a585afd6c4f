import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  asRunWaitSteps,
  criticalSteps,
  criticalStepsBatch,
  criticalStepsBatchInputOf,
  CriticalStepsMeter,
  heaviestPath,
  overlapWaves,
  stagesToDag,
  validateStages,
  type DagNode,
  type MeteredAgent,
  type StageRecord,
} from '../src/index.js';
import { messageOf } from './support.js';

/** One orchestrator turn of a pooled schedule: its main steps, its sub-agents' steps, the pool's slots. */
interface PooledTurn {
  readonly main: number;
  readonly steps: readonly number[];
  readonly slots: number;
}

/** A sub-agent as the simulated pool ran it, every step taking one unit of time. */
interface Ran {
  readonly start: number;
  readonly end: number;
  readonly steps: number;
}

const turnArb: fc.Arbitrary<PooledTurn> = fc.record({
  main: fc.integer({ min: 0, max: 3 }),
  steps: fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 14 }),
  slots: fc.integer({ min: 1, max: 6 }),
});

/**
 * Run one turn on a pool of `slots` with unit-time steps, as a semaphore does: sub-agents start in
 * launch order whenever a slot is free; at each instant, those that end free their slots before
 * waiting ones start. Feeds the meter the events in that order and returns each run's times.
 */
function runPool(meter: CriticalStepsMeter, turn: PooledTurn): Ran[] {
  meter.step(meter.root, turn.main);
  const ran: Ran[] = [];
  const running: { i: number; end: number; agent: MeteredAgent }[] = [];
  let next = 0;
  let now = 0;
  for (;;) {
    // ends at `now` first, in the order they started
    for (let k = 0; k < running.length; ) {
      const r = running[k] as (typeof running)[number];
      if (r.end > now) {
        k++;
        continue;
      }
      meter.endSubAgent(r.agent, true);
      running.splice(k, 1);
    }
    while (running.length < turn.slots && next < turn.steps.length) {
      const i = next++;
      const steps = turn.steps[i] as number;
      const agent = meter.startSubAgent();
      for (let s = 0; s < steps; s++) meter.step(agent);
      ran[i] = { start: now, end: now + steps, steps };
      running.push({ i, end: now + steps, agent });
      // a sub-agent of zero steps ends at once, freeing its slot at this same instant
      if (steps === 0) {
        meter.endSubAgent(agent, true);
        running.pop();
      }
    }
    if (running.length === 0 && next >= turn.steps.length) break;
    now = Math.min(...running.map((r) => r.end));
  }
  return ran;
}

/** The turn as a DAG: main → each sub-agent, and j → i wherever j ended before (or as) i started. */
function chainDag(main: number, ran: readonly Ran[]): DagNode[] {
  const nodes: DagNode[] = [{ id: 'main', weight: main }];
  const order = ran.map((_, i) => i).sort((a, b) => (ran[a] as Ran).start - (ran[b] as Ran).start || (ran[a] as Ran).end - (ran[b] as Ran).end || a - b);
  const rank = new Map(order.map((i, r) => [i, r]));
  ran.forEach((r, i) => {
    const deps = ['main'];
    ran.forEach((q, j) => {
      if (j !== i && q.end <= r.start && (rank.get(j) as number) < (rank.get(i) as number)) deps.push(`s${j}`);
    });
    nodes.push({ id: `s${i}`, weight: r.steps, deps });
  });
  return nodes;
}

describe('the as-run rule and the live meter (spec §2, §7, §10)', () => {
  it('a pooled schedule: critical steps = its heaviest chain = the wall-clock makespan in steps; staged = DAG = batch', () => {
    fc.assert(
      fc.property(fc.array(turnArb, { minLength: 1, maxLength: 4 }), (turns) => {
        const meter = new CriticalStepsMeter();
        let chains = 0;
        let makespan = 0;
        const waits: number[][] = [];
        for (const turn of turns) {
          const ran = runPool(meter, turn);
          chains += heaviestPath(chainDag(turn.main, ran)).weight;
          makespan += turn.main + Math.max(0, ...ran.map((r) => r.end));
          waits.push(asRunWaitSteps(ran));
        }
        const stages = meter.stages();
        const staged = criticalSteps(stages);
        expect(meter.criticalSteps).toBe(chains);
        expect(meter.criticalSteps).toBe(makespan);
        expect(staged.critical_steps).toBe(meter.criticalSteps);
        // the grouping rule on the times gives the meter's waits
        expect(stages.map((s) => (s.sub_steps ?? []).map((e) => (e as { wait_steps?: number }).wait_steps ?? 0))).toEqual(waits);
        // work is every step, waits excluded
        expect(staged.total_steps).toBe(turns.reduce((n, t) => n + t.main + t.steps.reduce((a, b) => a + b, 0), 0));
        const validated = validateStages(stages);
        expect(heaviestPath(stagesToDag(validated)).weight).toBe(staged.critical_steps);
        const input = criticalStepsBatchInputOf([validated]);
        for (const kernel of ['js', 'wasm'] as const) {
          const out = criticalStepsBatch({ ...input, subSteps: Float32Array.from(input.subSteps), kernel });
          expect(out.critical_steps[0]).toBe(staged.critical_steps);
          expect(out.total_steps[0]).toBe(staged.total_steps);
        }
      }),
    );
  });

  it('one slot runs a turn as one chain; enough slots run it launched together', () => {
    const steps = [3, 1, 4, 1, 5];
    const serial = new CriticalStepsMeter();
    runPool(serial, { main: 1, steps, slots: 1 });
    expect(serial.criticalSteps).toBe(1 + 14);
    const wide = new CriticalStepsMeter();
    runPool(wide, { main: 1, steps, slots: 5 });
    expect(wide.criticalSteps).toBe(1 + 5);
    expect(wide.stages()[0]?.sub_steps?.every((e) => !('wait_steps' in (e as object)))).toBe(true);
  });

  it('criticalStepsIf is the critical steps after the call, and the record always reads back to the running figure', () => {
    type Op = { readonly kind: 'step' | 'start' | 'end'; readonly pick: number };
    const opArb: fc.Arbitrary<Op> = fc.record({ kind: fc.constantFrom('step' as const, 'start' as const, 'end' as const), pick: fc.nat() });
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const meter = new CriticalStepsMeter();
        meter.step();
        const agents: MeteredAgent[] = [meter.root];
        for (const op of ops) {
          const alive = agents.filter((a) => a.running);
          const agent = alive[op.pick % alive.length] as MeteredAgent;
          if (op.kind === 'step') {
            const predicted = meter.criticalStepsIf({ kind: 'step', agent });
            expect(meter.fits(predicted, { kind: 'step', agent })).toBe(true);
            meter.step(agent);
            expect(meter.criticalSteps).toBe(predicted);
          } else if (op.kind === 'start' && agent.steps > 0) {
            const predicted = meter.criticalStepsIf({ kind: 'start', parent: agent });
            const sub = meter.startSubAgent(agent);
            meter.step(sub);
            expect(meter.criticalSteps).toBe(predicted);
            agents.push(sub);
          } else if (op.kind === 'end' && agent !== meter.root) {
            meter.endSubAgent(agent, op.pick % 2 === 0);
          }
          expect(criticalSteps(meter.stages()).critical_steps).toBe(meter.criticalSteps);
        }
      }),
    );
  });

  it('names what cannot happen', () => {
    const meter = new CriticalStepsMeter();
    expect(messageOf(() => meter.startSubAgent())).toMatch(/^parent must be an agent that made a model call/);
    meter.step();
    const a = meter.startSubAgent();
    meter.endSubAgent(a, true);
    expect(messageOf(() => meter.step(a))).toMatch(/^agent must be a running agent/);
    expect(messageOf(() => meter.step(meter.root, -1))).toBe('steps must be a finite number ≥ 0, got -1');
    expect(messageOf(() => new CriticalStepsMeter().step(meter.root))).toMatch(/^agent must be an agent of this meter/);
    expect(messageOf(() => asRunWaitSteps([{ start: 2, end: 1, steps: 1 }]))).toBe('runs[0].end must be at least its start (2), got 1');
    expect(messageOf(() => asRunWaitSteps([{ start: 0, end: 1, steps: -1 }]))).toBe('runs[0].steps must be a finite number ≥ 0, got -1');
  });

  it('overlapWaves splits where a run starts at or after every earlier one ended', () => {
    expect(overlapWaves([{ start: 5, end: 6 }, { start: 0, end: 2 }, { start: 1, end: 5 }, { start: 6, end: 7 }])).toEqual([[1, 2], [0], [3]]);
    expect(overlapWaves([])).toEqual([]);
  });

  it('the spec §2 example: 20 sub-agents of 3 steps, 2 at a time, take 30 critical steps', () => {
    const meter = new CriticalStepsMeter();
    runPool(meter, { main: 0, steps: Array.from({ length: 20 }, () => 3), slots: 2 });
    expect(meter.criticalSteps).toBe(30);
    const stages: StageRecord[] = meter.stages();
    expect(criticalSteps(stages).total_steps).toBe(60);
  });
});
