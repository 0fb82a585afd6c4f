/**
 * `--reward-url`: each finished rollout's reward fields POSTed to the trainer over real HTTP,
 * the template expanded per rollout, retried, and a failure named on the line that is still written.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { resolveOptions } from '@parl/core';
import { afterEach, describe, expect, it } from 'vitest';
import { generateSuite, scriptedLookupModel, scriptedOrchestrator, swarmRun, SWARM_RUN_OPTIONS, type RolloutLine, type SwarmTask } from '../src/index.js';
import { runRollouts } from '../src/rollouts/run-rollouts.js';
import { postReward } from '../src/rollouts/reward-report.js';
import { settingsWith } from './support.js';

interface Received {
  readonly url: string;
  readonly body: Record<string, unknown>;
}

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server === undefined ? r() : server.close(() => r()))));

/** A trainer's reward endpoint: answers `status(n)` to the n-th request (0-based) and keeps what it got. */
async function trainer(status: (n: number) => number): Promise<{ base: string; received: Received[] }> {
  const received: Received[] = [];
  server = createServer((req: IncomingMessage, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const n = received.length;
      received.push({ url: req.url ?? '', body: JSON.parse(text) as Record<string, unknown> });
      res.writeHead(status(n), { 'content-type': 'application/json' }).end(status(n) < 300 ? '{}' : '{"error":"full"}');
    });
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { base: `http://127.0.0.1:${port}`, received };
}

const [task] = generateSuite('wide', { tasks: 1, seed: 5, entities: 2, attributes: 1 }) as [SwarmTask];
const fast = { attempts: 3, baseDelayMs: 1, timeoutMs: 5000 };

describe('--reward-url', () => {
  it('POSTs each rollout\'s reward fields to the template expanded for it; the body equals the line\'s fields', async () => {
    const t = await trainer(() => 200);
    const lines: RolloutLine[] = [];
    await swarmRun(resolveOptions(SWARM_RUN_OPTIONS, { model: 'scripted:parallel', tasks: '2', 'group-size': '2', 'reward-url': `${t.base}/rl/{task_id}/{sample}/reward?rollout={rollout_id}` }, 'flag'), { onLine: (l) => { lines.push(l); } });
    expect(t.received).toHaveLength(4);
    for (const line of lines) {
      const got = t.received.find((r) => r.body['rollout_id'] === line['id']);
      expect(got?.url).toBe(`/rl/${line['task_id']}/${line.sample}/reward?rollout=${encodeURIComponent(String(line['id']))}`);
      expect(got?.body).toEqual({
        rollout_id: line['id'], task_id: line['task_id'], group_id: line.group_id, sample: line.sample, reward: line.total_reward,
        total_reward: line.total_reward, r_perf: line['r_perf'], r_parallel: line['r_parallel'], r_finish: line['r_finish'], lambda1: line['lambda1'], lambda2: line['lambda2'],
        instantiation_component: line['instantiation_component'], finish_component: line['finish_component'], task_component: line['task_component'],
        training_step: 0, critical_steps: line['critical_steps'], num_subagents: line['num_subagents'], budget_exhausted: false,
      });
      expect(line['reward_post_error']).toBeUndefined();
    }
  });

  it('retries a 429 or 5xx, and takes the answer that finally comes', async () => {
    const t = await trainer((n) => (n === 0 ? 429 : n === 1 ? 503 : 200));
    const lines: RolloutLine[] = [];
    await runRollouts([task], settingsWith({ orchestrator: scriptedOrchestrator('parallel'), subagentModel: scriptedLookupModel() }), { groupSize: 1, rewardUrl: `${t.base}/reward`, rewardPost: fast, onLine: (l) => { lines.push(l); } });
    expect(t.received).toHaveLength(3);
    expect(lines[0]?.['reward_post_error']).toBeUndefined();
  });

  it('a trainer that refuses: the failure is named on the line and told once, and the line is still written', async () => {
    const t = await trainer(() => 400);
    const told: string[] = [];
    const lines: RolloutLine[] = [];
    await runRollouts([task], settingsWith({ orchestrator: scriptedOrchestrator('parallel'), subagentModel: scriptedLookupModel() }), {
      groupSize: 2,
      onLine: (l) => {
        lines.push(l);
      },
      rewardUrl: `${t.base}/reward/{sample}`,
      rewardPost: fast,
      onRewardError: (m) => told.push(m),
    });
    expect(lines).toHaveLength(2);
    // A 400 is not retried: one request per rollout.
    expect(t.received).toHaveLength(2);
    expect(told).toEqual([`POST ${t.base}/reward/0 failed after 1 attempt: HTTP 400: {"error":"full"}`, `POST ${t.base}/reward/1 failed after 1 attempt: HTTP 400: {"error":"full"}`]);
    expect(lines.map((l) => l['reward_post_error'])).toEqual(told);
  });

  it('an unreachable trainer is named after the retries', async () => {
    const t = await trainer(() => 200);
    await new Promise<void>((r) => server?.close(() => r()));
    server = undefined;
    const failure = await postReward(`${t.base}/reward`, { id: 'x/rollout-0', task_id: 'x', group_id: 'x', sample: 0, total_reward: 1 }, fast);
    expect(failure).toMatch(new RegExp(`^POST ${t.base}/reward failed after 3 attempts: cannot reach it \\(.*ECONNREFUSED`));
  });
});
