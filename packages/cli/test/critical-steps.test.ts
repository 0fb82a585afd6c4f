import { criticalSteps } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { parl } from './support/memory-io.js';
import { BAD_RECORD, GOOD_RECORDS, jsonl, parseJsonl } from './support/records.js';

const staged = GOOD_RECORDS[1]; // stage critical steps 6, 10, 1 → 17

describe('parl critical-steps', () => {
  it('adds the spec §2 fields to records with stages', async () => {
    const r = await parl(['critical-steps'], jsonl([staged, GOOD_RECORDS[2]]));
    expect(r.code).toBe(0);
    const out = parseJsonl(r.stdout);
    expect(out[0]).toMatchObject({ ...staged, ...criticalSteps(staged.stages) });
    expect(out[0]).toMatchObject({ critical_steps: 17, total_steps: 26, num_stages: 3, max_width: 3 });
    expect(out[1]).toMatchObject({ critical_steps: 3.5, total_steps: 4.5, max_width: 2 });
    expect(out[0]).not.toHaveProperty('within_budget');
  });

  it('with --budget marks the cut; fail keeps the whole-episode fields, truncate counts only the stages that ran', async () => {
    const fail = parseJsonl((await parl(['critical-steps', '--budget', '16'], jsonl([staged]))).stdout)[0];
    expect(fail).toMatchObject({ critical_steps: 17, within_budget: false, budget_cut_stage: 2 });
    const truncate = parseJsonl((await parl(['critical-steps', '--budget', '16', '--on-budget', 'truncate'], jsonl([staged]))).stdout)[0];
    expect(truncate).toMatchObject({ critical_steps: 16, num_stages: 2, within_budget: false, budget_cut_stage: 2 });
    const within = parseJsonl((await parl(['critical-steps', '--budget', '17'], jsonl([staged]))).stdout)[0];
    expect(within).toMatchObject({ within_budget: true, budget_cut_stage: null });
  });

  it('stops with exit code 2 on a record without stages, naming it', async () => {
    const r = await parl(['critical-steps'], jsonl([staged, GOOD_RECORDS[0]]));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('parl critical-steps: line 2: stages must be an array of stages (needed for critical steps), got undefined (missing)\n');
  });

  it('skips bad records with --on-error skip and counts them', async () => {
    const r = await parl(['critical-steps', '--on-error', 'skip', '--format', 'csv', '--columns', 'id,critical_steps'], jsonl([GOOD_RECORDS[0], staged, BAD_RECORD]));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('id,critical_steps\nb,17\n');
    expect(r.stderr).toBe(
      [
        'parl critical-steps: skipped line 1: stages must be an array of stages (needed for critical steps), got undefined (missing)',
        'parl critical-steps: skipped line 3: stages[1].sub_steps[0] must be a finite number ≥ 0, got -3',
        'parl critical-steps: skipped 2 of 3 records',
        '',
      ].join('\n'),
    );
  });

  it('rejects a negative budget as a bad flag (one line, exit 2)', async () => {
    const r = await parl(['critical-steps', '--budget', '-2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("option '--budget <K>' argument '-2' is invalid");
    // one line (and a suggestion for a typo), not the whole usage
      expect(r.stderr).not.toContain('Usage:');
      expect(r.stderr.trimEnd().split('\n').length).toBeLessThanOrEqual(2);
  });
});
