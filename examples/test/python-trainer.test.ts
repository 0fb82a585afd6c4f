import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeReward, validateRecord } from '@parl/core';
import { findPython } from '@parl/test-support/python';
import { describe, expect, it } from 'vitest';
import { describeRun, EXAMPLES_DIR, PARL_BIN, runIn } from './support/run-example.js';

const TRAINER_DIR = join(EXAMPLES_DIR, 'python-trainer');
const found = findPython();
const python = found.path ?? '';
const skipReason = found.skipReason;
if (skipReason !== undefined) console.warn(`python-trainer example skipped: ${skipReason}`);

/** The environment that points the helper at the workspace's built `parl`. */
const env = { ...process.env, PARL_CLI: `"${process.execPath}" "${PARL_BIN}"`, PYTHONDONTWRITEBYTECODE: '1' };

/** Run Python code in the example's folder; it prints one JSON document. */
function python3(code: string): unknown {
  const result = runIn(python, ['-c', code], { cwd: TRAINER_DIR, env });
  expect(result.status, describeRun('python3', result)).toBe(0);
  return JSON.parse(result.stdout);
}

const records = readFileSync(join(TRAINER_DIR, 'rollouts.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Record<string, unknown>);

const FIELDS = ['total_reward', 'r_parallel', 'r_finish', 'r_perf', 'lambda1', 'lambda2', 'instantiation_component', 'finish_component', 'task_component'] as const;

describe.skipIf(skipReason !== undefined)(`examples/python-trainer/parl_rewards.py against the real parl CLI${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  it('label_rollouts returns every per-term field, equal to @parl/core', () => {
    const labelled = python3(`
import json, sys
from parl_rewards import label_rollouts
with open("rollouts.jsonl") as f:
    rows = [json.loads(l) for l in f if l.strip()]
out = label_rollouts(rows)
print(json.dumps({"labelled": out, "imported_trainers": [m for m in ("trl", "verl") if m in sys.modules]}))
`) as { labelled: Record<string, unknown>[]; imported_trainers: string[] };
    expect(labelled.imported_trainers).toEqual([]);
    expect(labelled.labelled).toHaveLength(records.length);
    labelled.labelled.forEach((row, i) => {
      const expected = computeReward(validateRecord(records[i]));
      expect(row.id).toBe(records[i]?.id);
      for (const field of FIELDS) expect(row[field], `${String(row.id)}.${field}`).toBe(expected[field]);
    });
  });

  it('the TRL reward function and the verl compute_score hooks give the same totals, at the trainer step', () => {
    const out = python3(`
import json
from types import SimpleNamespace
from parl_rewards import make_trl_reward_func, compute_score, compute_score_batch
with open("rollouts.jsonl") as f:
    rows = [json.loads(l) for l in f if l.strip()]
trl_fn = make_trl_reward_func(lambda prompt, completion, row: row["parl_record"])
trl = trl_fn(prompts=["p"] * len(rows), completions=["c"] * len(rows), parl_record=rows, trainer_state=SimpleNamespace(global_step=9000))
verl = compute_score("parl", "answer", None, extra_info={"parl_record": rows[3], "global_step": 9000})
batch = compute_score_batch(["parl"] * len(rows), ["a"] * len(rows), [None] * len(rows), [{"parl_record": r} for r in rows], step=9000)
print(json.dumps({"trl": trl, "trl_name": trl_fn.__name__, "verl": verl, "batch": batch}))
`) as { trl: number[]; trl_name: string; verl: Record<string, number>; batch: Record<string, number>[] };
    const expected = records.map((r) => computeReward(validateRecord(r), { step: 9000 }));
    expect(out.trl_name).toBe('parl_reward');
    expect(out.trl).toEqual(expected.map((e) => e.total_reward));
    expect(out.verl.score).toBe(expected[3]?.total_reward);
    expect(out.verl.r_perf).toBe(expected[3]?.r_perf);
    expect(out.verl.lambda1).toBe(expected[3]?.lambda1);
    expect(out.batch.map((b) => b.score)).toEqual(expected.map((e) => e.total_reward));
  });

  it('a bad record raises ParlCliError carrying the CLI message that names the line and field', () => {
    const out = python3(`
import json
from parl_rewards import label_rollouts, ParlCliError
try:
    label_rollouts([{"r_perf": 1}, {"num_subagents": -3, "r_perf": 1}])
    print(json.dumps({"raised": False}))
except ParlCliError as err:
    print(json.dumps({"raised": True, "message": str(err)}))
`) as { raised: boolean; message?: string };
    expect(out.raised).toBe(true);
    expect(out.message).toMatch(/line 2/);
    expect(out.message).toMatch(/num_subagents/);
    expect(out.message).toMatch(/-3/);
  });

  it('runs as a script over a JSONL file, printing one line per rollout', () => {
    const result = runIn(python, ['parl_rewards.py', 'rollouts.jsonl'], { cwd: TRAINER_DIR, env });
    expect(result.status, describeRun('python3 parl_rewards.py', result)).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(records.length);
    expect(lines[0]).toMatch(/^serial: total_reward \d\.\d{4} {2}r_parallel/);
  });
});
