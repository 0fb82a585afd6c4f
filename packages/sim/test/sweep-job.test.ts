import { describe, expect, it } from 'vitest';
import { getPreset, resolveTrainingConfig } from '../src/index.js';
import { runIdOf } from '../src/internal/runs/run-id.js';
import { trainSweepRun } from '../src/internal/sweeps/sweep-job.js';
import runSweepTask from '../src/sweep-worker.js';

const tiny = resolveTrainingConfig({ steps: 2, tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 8 } }, getPreset('parl'));

describe('trainSweepRun', () => {
  it('returns the run folder files of the config, the same on every call', { timeout: 60_000 }, async () => {
    const out = await runSweepTask({ runId: runIdOf(tiny), config: tiny });
    expect(Object.keys(out.files).sort()).toEqual(['config.json', 'metrics.jsonl', 'policy/policy.json', 'summary.json']);
    expect(JSON.parse(out.files['config.json']!)).toEqual(JSON.parse(JSON.stringify(tiny)));
    expect(JSON.parse(out.files['summary.json']!)).toEqual(out.summary);
    expect(out.files['metrics.jsonl']!.trim().split('\n')).toHaveLength(2);
    expect(out.wallSeconds).toBeGreaterThan(0);
    const again = await trainSweepRun({ runId: runIdOf(tiny), config: tiny });
    expect(again.files).toEqual(out.files);
  });

  it('refuses a task whose config does not hash to its run id', async () => {
    await expect(trainSweepRun({ runId: '0000000000000000', config: tiny })).rejects.toThrow(/runId.*hash of the task's config/);
  });
});
