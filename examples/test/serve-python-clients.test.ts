/**
 * The Python clients of examples/serve-clients (standard library only) against a real
 * `parl serve` on loopback: verl's custom reward function, a TRL reward function and OpenRLHF's
 * remote reward call each get @parl/core's numbers.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { labelReward } from '@parl/core';
import { createParlServer, type ParlServer } from '@parl/serve';
import { findPython } from '@parl/test-support/python';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES_DIR } from './support/run-example.js';

const CLIENTS_DIR = join(EXAMPLES_DIR, 'serve-clients');
const found = findPython();
const python = found.path ?? '';
const skipReason = found.skipReason;
if (skipReason !== undefined) console.warn(`serve Python clients skipped: ${skipReason}`);

const TOKEN = 'example-token';
let server: ParlServer;
let dir: string;

/** Run a client script (asynchronously: the server runs in this process), stdin in, parsed stdout out. */
function runPython(script: string, args: readonly string[], input: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      python,
      [script, ...args],
      { cwd: CLIENTS_DIR, env: { ...process.env, PARL_SERVE_URL: server.url, PARL_SERVE_TOKEN: TOKEN, PYTHONDONTWRITEBYTECODE: '1' } },
      (err, stdout, stderr) => {
        if (err !== null) reject(new Error(`${script} failed: ${err.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as unknown);
      },
    );
    child.stdin?.end(input);
  });
}

beforeAll(async () => {
  if (skipReason !== undefined) return;
  dir = mkdtempSync(join(tmpdir(), 'parl-serve-py-'));
  server = await createParlServer({ port: 0, token: TOKEN, logFile: join(dir, 'episodes.jsonl') });
  // Episodes the trainer names by id, as an agent app or a rollout worker would have posted them.
  const res = await fetch(`${server.url}/v1/rewards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify([{ id: 'rollout-7', num_subagents: 12, assigned_subtasks: 12, completed_subtasks: 9, success: false }]),
  });
  expect(res.status).toBe(200);
});
afterAll(async () => {
  if (skipReason !== undefined) return;
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const RECORD = { num_subagents: 30, completed_subtasks: 24, success: true, quality: 0.9 };

describe.skipIf(skipReason !== undefined)(`Python clients of parl serve${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  it('verl: compute_score scores a record given as ground truth, and a known episode with its outcome', async () => {
    const input = [JSON.stringify([JSON.stringify(RECORD), { training_step: 4000 }]), JSON.stringify(['rollout-7', { training_step: 4000, outcome: { success: true, quality: 0.5 } }])].join('\n');
    const out = (await runPython('verl_reward.py', [], input)) as { score: number; r_finish: number }[];
    expect(out[0]?.score).toBe(labelReward(RECORD, { step: 4000 }).total_reward);
    const traced = labelReward({ num_subagents: 12, assigned_subtasks: 12, completed_subtasks: 9, success: true, quality: 0.5 }, { step: 4000 });
    expect(out[1]).toEqual({ score: traced.total_reward, r_parallel: traced.r_parallel, r_finish: traced.r_finish, r_perf: traced.r_perf });
  });

  it('TRL: parl_reward returns one total reward per completion, at the trainer step', async () => {
    const batch = [RECORD, { num_subagents: 2, r_perf: 0.4 }, { stages: [{ main_steps: 1, sub_steps: [2, 3] }], success: false }];
    const out = await runPython('trl_reward.py', ['250'], JSON.stringify(batch));
    expect(out).toEqual(batch.map((r) => labelReward(r, { step: 250 }).total_reward));
  });

  it('OpenRLHF: the remote reward request gets rewards, scores and extra_logs for ids and records', async () => {
    const labels = ['rollout-7', JSON.stringify(RECORD)];
    const out = (await runPython('openrlhf_remote_rm.py', [`${server.url}/get_reward?training_step=10`], JSON.stringify(labels))) as { rewards: number[]; scores: number[]; extra_logs: Record<string, number[]> };
    // rollout-7 as its outcome left it (posted by the verl test above).
    const known = { num_subagents: 12, assigned_subtasks: 12, completed_subtasks: 9, success: true, quality: 0.5 };
    const expected = [labelReward(known, { step: 10 }), labelReward(RECORD, { step: 10 })];
    expect(out.rewards).toEqual(expected.map((e) => e.total_reward));
    expect(out.scores).toEqual(out.rewards);
    expect(out.extra_logs['r_perf']).toEqual(expected.map((e) => e.r_perf));
  });

  it('retries a busy server\'s 503 after its Retry-After: concurrent trainer calls all get their labelled records', async () => {
    const busy = await createParlServer({ port: 0, token: TOKEN, labelThreads: 1, maxQueuedBodies: 1 });
    const previous = server;
    server = busy;
    try {
      const code = [
        'import json, sys',
        'from concurrent.futures import ThreadPoolExecutor',
        'import parl_serve',
        'batch = [{"id": "b%d" % i, "stages": [{"main_steps": 1, "sub_steps": [3, 5, 2]}], "r_perf": 0.5} for i in range(2000)]',
        'with ThreadPoolExecutor(12) as pool:',
        '    answers = list(pool.map(lambda _: parl_serve.rewards(batch, training_step=7), range(12)))',
        'print(json.dumps([len(a) for a in answers] + [answers[0][1999]["total_reward"]]))',
      ].join('\n');
      const out = (await runPython('-c', [code], '')) as number[];
      const expected = labelReward({ stages: [{ main_steps: 1, sub_steps: [3, 5, 2] }], r_perf: 0.5 }, { step: 7 }).total_reward;
      expect(out).toEqual([...Array.from({ length: 12 }, () => 2000), expected]);
      const metrics = await (await fetch(`${busy.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      const refused = metrics.split('\n').find((l) => l.startsWith('parl_http_requests_total') && l.includes('status="503"'));
      expect(Number(refused?.split(' ').at(-1) ?? 0)).toBeGreaterThan(0);
    } finally {
      server = previous;
      await busy.close();
    }
  });
});
