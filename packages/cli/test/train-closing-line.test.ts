import type { RunSummary } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { trainClosingLine } from '../src/internal/commands/train.js';

const summary = (final: Partial<RunSummary['final']>): RunSummary => ({
  preset: 'p',
  seed: 1,
  steps: 10,
  final: { r_perf: 0.5, critical_steps: 20, mean_width: 1, finish_rate: 1, success_rate: 1, ...final },
  baseline_serial: { r_perf: 0.87, critical_steps: 80 },
  latency_to_target: [],
});

describe("parl train's closing line (issue 24, first hour)", () => {
  it('states the width and finish rate of a spurious run plainly, verdict first', () => {
    expect(trainClosingLine(summary({ mean_width: 100, finish_rate: 0.15, r_perf: 0.41, critical_steps: 12 }))).toBe(
      'spurious: groups of 100 sub-agents, finish rate 0.15 (most sub-agents finish nothing); final r_perf 0.41 in 12 critical steps (serial baseline: 0.87 in 80)',
    );
  });

  it('says a policy that launches nobody has no finish rate', () => {
    expect(trainClosingLine(summary({ mean_width: 0, finish_rate: null }))).toMatch(/^collapsed: launches no sub-agent \(width 0, finish rate none\); final r_perf/);
  });

  it('reads as parallel only when the verdict is', () => {
    expect(trainClosingLine(summary({ mean_width: 6.4, finish_rate: 0.97 }))).toMatch(/^parallel: groups of 6\.4 sub-agents, finish rate 0\.97; /);
  });
});
