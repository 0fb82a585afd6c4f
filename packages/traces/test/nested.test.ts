/** Spec §5.2 in traces: a sub-agent that launched sub-agents is a nested entry, and findings look inside it. */
import { criticalSteps } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { collect } from './support/collect.js';
import { otlpLine, type HandSpan } from './support/hand-spans.js';

/** An orchestrator (1 call) that runs a lead; the lead runs three workers one per turn of its own (4 calls), each worker 2 calls. */
function nestedSerialTrace(): HandSpan[] {
  const spans: HandSpan[] = [
    { id: 'root', op: 'invoke_agent', agent: 'boss', start: 0, end: 1000 },
    { id: 'm1', parent: 'root', op: 'chat', start: 0, end: 10 },
    { id: 'lead', parent: 'root', op: 'invoke_agent', agent: 'lead', start: 20, end: 900 },
    { id: 'm2', parent: 'root', op: 'chat', start: 950, end: 960 },
  ];
  for (let k = 0; k < 3; k++) {
    const t0 = 30 + k * 250;
    spans.push({ id: `l${k}`, parent: 'lead', op: 'chat', start: t0, end: t0 + 10 });
    spans.push({ id: `w${k}`, parent: 'lead', op: 'invoke_agent', agent: `worker${k}`, start: t0 + 20, end: t0 + 200 });
    spans.push({ id: `w${k}a`, parent: `w${k}`, op: 'chat', start: t0 + 30, end: t0 + 60 });
    spans.push({ id: `w${k}b`, parent: `w${k}`, op: 'chat', start: t0 + 100, end: t0 + 150 });
  }
  spans.push({ id: 'l3', parent: 'lead', op: 'chat', start: 800, end: 810 });
  return spans;
}

describe('nested sub-agents in traces', () => {
  it('writes the lead as a nested entry whose stages are its own turns', async () => {
    const { results, warnings } = await collect([otlpLine(nestedSerialTrace())], { strict: true });
    expect(warnings).toEqual([]);
    const r = results[0];
    expect(r?.record.stages).toEqual([
      {
        main_steps: 1,
        sub_steps: [
          {
            stages: [
              { main_steps: 1, sub_steps: [{ steps: 2, finished: true }] },
              { main_steps: 1, sub_steps: [{ steps: 2, finished: true }] },
              { main_steps: 1, sub_steps: [{ steps: 2, finished: true }] },
              { main_steps: 1, sub_steps: [] },
            ],
            finished: true,
          },
        ],
      },
      { main_steps: 1, sub_steps: [] },
    ]);
    const cs = criticalSteps(r?.record.stages ?? []);
    expect([cs.critical_steps, cs.total_steps]).toEqual([1 + 10 + 1, 2 + 4 + 6]);
  });

  it('finds the serial collapse inside the lead and counts its saving on the whole trace', async () => {
    const { results } = await collect([otlpLine(nestedSerialTrace())]);
    const f = results[0]?.finding;
    // The orchestrator itself launched one sub-agent in one turn: nothing serial at the top.
    expect(f?.patterns.map((p) => [p.kind, p.within, p.turns, p.groups.map((g) => g.map((s) => s.name))])).toEqual([
      ['one_per_turn', [{ span_id: 'lead', name: 'lead', stage: 0, entry: 0 }], [1, 2, 3], [['worker0'], ['worker1'], ['worker2']]],
    ]);
    expect(f?.serial_collapse).toBe(true);
    // The lead launching its workers together: 1 + 2 + 1 = 4 (was 10); the trace 1 + 4 + 1 = 6 (was 12).
    expect([f?.critical_steps_as_run, f?.critical_steps_if_parallel, f?.critical_steps_saved]).toEqual([12, 6, 6]);
    expect(f?.patterns[0]?.critical_steps_saved).toBe(6);
  });

  it('groups nested entries by `children` too', async () => {
    const { results } = await collect([otlpLine(nestedSerialTrace())], { grouping: 'children' });
    expect(criticalSteps(results[0]?.record.stages ?? []).critical_steps).toBe(12);
  });
});

describe('a trace without step information', () => {
  const noSteps: HandSpan[] = [
    { trace: 'nosteps', id: 'root', op: 'invoke_agent', agent: 'boss', start: 0, end: 100 },
    { trace: 'nosteps', id: 'sub', parent: 'root', op: 'invoke_agent', agent: 'helper', start: 10, end: 90 },
    { trace: 'nosteps', id: 'tool', parent: 'sub', op: 'execute_tool', start: 20, end: 30 },
  ];

  it('is a warning naming the trace and what is missing, never a record of zeros', async () => {
    const { results, warnings } = await collect([otlpLine(noSteps)]);
    expect(results).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/^skipped line 1: trace nosteps must be a trace with at least one step, but it has no recognised model call \(a span with gen_ai\.operation\.name chat/)]);
  });

  it('is an error under strict', async () => {
    await expect(collect([otlpLine(noSteps)], { strict: true })).rejects.toThrow(/^line 1: trace nosteps must be a trace with at least one step/);
    await expect(collect([otlpLine(noSteps)], { strict: true })).rejects.toMatchObject({ name: 'NoStepInformationError', code: 'PARL_ERR_NO_STEPS', traceId: 'nosteps' });
  });

  it('counts tool calls as steps with stepsFrom tools', async () => {
    const { results } = await collect([otlpLine(noSteps)], { stepsFrom: 'tools' });
    expect(results[0]?.record.stages).toEqual([{ main_steps: 0, sub_steps: [{ steps: 1, finished: true }] }]);
  });
});
