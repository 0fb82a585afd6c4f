import { describe, expect, it } from 'vitest';
import { criticalSteps } from '@parl/core';
import { collect, collectError } from './support/collect.js';
import { otlpLine, smallTrace } from './support/hand-spans.js';

describe('native spec §5 records', () => {
  const rec = { id: 'task-17/rollout-3', success: true, stages: [{ main_steps: 1, sub_steps: [3, 5, 2] }, { main_steps: 1, sub_steps: [] }] };

  it('pass through unchanged, with a finding that has no serial collapse', async () => {
    const { results } = await collect([`${JSON.stringify(rec)}\n`]);
    expect(results).toHaveLength(1);
    expect(results[0]?.record).toEqual(rec);
    expect(results[0]?.format).toBe('parl');
    expect(results[0]?.finding).toEqual({
      trace_id: 'task-17/rollout-3',
      serial_collapse: false,
      patterns: [],
      critical_steps_as_run: criticalSteps(rec.stages).critical_steps,
      critical_steps_if_parallel: criticalSteps(rec.stages).critical_steps,
      critical_steps_saved: 0,
    });
  });

  it('mix with traces in one JSONL file (format auto)', async () => {
    const text = [JSON.stringify(rec), otlpLine(smallTrace('m')), JSON.stringify({ stages: [] })].join('\n');
    const { results } = await collect([text]);
    expect(results.map((r) => [r.format, r.traceId])).toEqual([
      ['parl', 'task-17/rollout-3'],
      ['parl', 'record 2'],
      ['otlp', 'm'],
    ]);
  });

  it('are validated by @parl/core: a bad record names the line and the field', async () => {
    const text = `${JSON.stringify(rec)}\n${JSON.stringify({ stages: [{ main_steps: 1, sub_steps: [-3] }] })}\n`;
    expect((await collectError([text])).message).toBe('line 2: stages[0].sub_steps[0] must be a finite number ≥ 0, got -3');
    const skipped = await collect([text], { onMalformed: 'skip' });
    expect(skipped.results).toHaveLength(1);
    expect(skipped.warnings).toEqual(['skipped line 2: line 2: stages[0].sub_steps[0] must be a finite number ≥ 0, got -3']);
  });
});
