import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readTraces, type TraceOptions, type TraceResult } from '../src/index.js';

// The worked example of docs/traces.md: keep the two in step.
const file = fileURLToPath(new URL('./fixtures/worked-example.jsonl', import.meta.url));

async function one(options: TraceOptions = {}): Promise<TraceResult> {
  const out: TraceResult[] = [];
  for await (const r of readTraces(createReadStream(file), options)) out.push(r);
  expect(out).toHaveLength(1);
  return out[0] as TraceResult;
}

describe('the worked example of docs/traces.md', () => {
  it('gives the documented record and finding', async () => {
    const r = await one({ grouping: 'children' });
    expect(r.orchestrator).toBe('planner');
    expect(r.record).toEqual({
      id: 'trace_demo',
      stages: [
        { main_steps: 1, sub_steps: [{ steps: 1, finished: true }, { steps: 2, finished: true }, { steps: 1, finished: false }] },
        { main_steps: 1, sub_steps: [] },
      ],
    });
    expect(r.finding.patterns.map((p) => [p.kind, p.turns, p.stages, p.groups.map((w) => w.map((s) => [s.name, s.wait_steps])), p.independence])).toEqual([
      ['waves', [1], [0], [[['summariser', 0], ['researcher', 0]], [['reviewer', 2]]], 'unknown'],
    ]);
    expect([r.finding.critical_steps_as_run, r.finding.critical_steps_if_parallel, r.finding.critical_steps_saved]).toEqual([5, 4, 1]);
  });

  it('gives the documented as-run (default) and wall-clock records', async () => {
    expect((await one()).record.stages).toEqual([
      { main_steps: 1, sub_steps: [{ steps: 1, finished: true }, { steps: 2, finished: true }, { steps: 1, finished: false, wait_steps: 2 }] },
      { main_steps: 1, sub_steps: [] },
    ]);
    expect((await one({ clock: 'wall', grouping: 'children' })).record.stages).toEqual([
      { main_steps: 1, sub_steps: [{ steps: 1, finished: true }, { steps: 2.5, finished: true }, { steps: 2, finished: false }] },
      { main_steps: 1, sub_steps: [] },
    ]);
  });
});
