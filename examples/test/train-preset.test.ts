import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeRun, runNodeExample } from './support/run-example.js';

const runDir = join(mkdtempSync(join(tmpdir(), 'parl-train-example-')), 'run');

afterAll(() => {
  rmSync(join(runDir, '..'), { recursive: true, force: true });
});

describe('examples/train-preset.mjs (parl train --preset parl, then summary.json and the report)', () => {
  it('trains, and prints what summary.json, metrics.jsonl and report.html hold', () => {
    const steps = 6;
    const result = runNodeExample('train-preset.mjs', [String(steps), runDir]);
    expect(result.status, describeRun('train-preset.mjs', result)).toBe(0);
    const summary = JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8')) as {
      preset: string;
      steps: number;
      final: { r_perf: number; critical_steps: number };
      baseline_serial: { r_perf: number; critical_steps: number };
      latency_to_target: unknown[];
    };
    expect(summary.preset).toBe('parl');
    expect(summary.steps).toBe(steps);
    // What the example prints is what the run folder holds.
    expect(result.stdout).toContain(`preset parl, seed 1, ${steps} training steps`);
    expect(result.stdout).toContain(`trained policy:  r_perf ${summary.final.r_perf.toFixed(3)}, critical steps ${summary.final.critical_steps.toFixed(1)}`);
    expect(result.stdout).toContain(`always serial:   r_perf ${summary.baseline_serial.r_perf.toFixed(3)}, critical steps ${summary.baseline_serial.critical_steps.toFixed(1)}`);
    expect(result.stdout.match(/^critical steps to reach r_perf /gm)?.length).toBe(summary.latency_to_target.length);
    expect(result.stdout).toContain(`metrics.jsonl: ${steps} steps`);
    expect(result.stdout).toMatch(/self-contained: yes\)$/m);
  });

  it('refuses a step count that is not a positive integer, naming it', () => {
    const result = runNodeExample('train-preset.mjs', ['0']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/steps must be an integer ≥ 1, got 0/);
  });
});
