import { describe, expect, it } from 'vitest';
import { ParlInputError, STEP_METRIC_FIELDS, validateRunSummary, validateStepMetrics } from '../src/index.js';

const summary = {
  preset: 'parl',
  seed: 1,
  steps: 400,
  final: { r_perf: 0.9, critical_steps: 16, mean_width: 15.5, finish_rate: 0.98, success_rate: 0.7 },
  baseline_serial: { r_perf: 0.87, critical_steps: 80 },
  latency_to_target: [
    { target: 0.3, policy: 12.5, serial: 70 },
    { target: 0.7, policy: 19, serial: null },
  ],
};

describe('validateRunSummary (spec §6 summary.json)', () => {
  it('returns exactly the spec fields, dropping others', () => {
    expect(validateRunSummary({ ...summary, extra: 1 })).toEqual(summary);
  });

  it('names the field path of a bad value', () => {
    const bad = { ...summary, latency_to_target: [{ target: 0.3, policy: 'fast', serial: null }] };
    expect(() => validateRunSummary(bad)).toThrow('latency_to_target[0].policy must be a finite number or null, got "fast"');
    expect(() => validateRunSummary({ ...summary, final: { ...summary.final, finish_rate: Number.NaN } })).toThrow(
      'final.finish_rate must be a finite number or null, got NaN',
    );
    expect(() => validateRunSummary({ ...summary, preset: 3 })).toThrow(ParlInputError);
    expect(() => validateRunSummary([])).toThrow('summary must be an object, got []');
  });
});

describe('validateStepMetrics (spec §6 metrics.jsonl)', () => {
  const row = Object.fromEntries(STEP_METRIC_FIELDS.map((k, i) => [k, i / 10]));

  it('keeps the eleven fields in spec order', () => {
    expect(Object.keys(validateStepMetrics({ zzz: 1, ...row }))).toEqual([...STEP_METRIC_FIELDS]);
  });

  it('rejects a missing or non-finite field by name', () => {
    const { critical_steps: _dropped, ...missing } = row;
    expect(() => validateStepMetrics(missing)).toThrow('critical_steps must be a finite number, got undefined (missing)');
    expect(() => validateStepMetrics({ ...row, lambda1: Infinity })).toThrow('lambda1 must be a finite number, got Infinity');
  });
});

describe('fields beyond spec §6', () => {
  const base = {
    preset: 'parl',
    seed: 1,
    steps: 2,
    final: { r_perf: 0.9, critical_steps: 20, mean_width: 5, finish_rate: 1, success_rate: 1, total_steps: 90, subagents: 12 },
    baseline_serial: { r_perf: 0.8, critical_steps: 60, total_steps: 60 },
    latency_to_target: [{ target: 0.5, policy: 18, serial: null }],
  };
  const baseline = { policy: 'serial', r_perf: 0.8, critical_steps: 60, total_steps: 60, subagents: 0, mean_width: 0, finish_rate: null, success_rate: 1, latency: [null], same_as_trained: false };

  it('keeps work, sub-agents and scripted baselines when present', () => {
    expect(validateRunSummary({ ...base, baselines: [baseline] })).toEqual({ ...base, baselines: [baseline] });
    expect(validateStepMetrics({ ...Object.fromEntries(STEP_METRIC_FIELDS.map((k) => [k, 1])), total_steps: 40, subagents: 3 })).toMatchObject({ total_steps: 40, subagents: 3 });
  });

  it('checks them', () => {
    expect(() => validateRunSummary({ ...base, final: { ...base.final, subagents: 'many' } })).toThrow('final.subagents must be a finite number');
    expect(() => validateRunSummary({ ...base, baselines: [{ ...baseline, latency: [] }] })).toThrow('baselines[0].latency');
    expect(() => validateRunSummary({ ...base, baselines: [{ ...baseline, same_as_trained: 'no' }] })).toThrow('baselines[0].same_as_trained');
    expect(() => validateStepMetrics({ ...Object.fromEntries(STEP_METRIC_FIELDS.map((k) => [k, 1])), total_steps: null })).toThrow('total_steps must be a finite number');
  });
});
