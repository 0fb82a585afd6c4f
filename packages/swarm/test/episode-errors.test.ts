/**
 * Errors of an episode (spec §10.2): a judge that is down, hangs or answers garbage, a module
 * scorer that throws, hangs or returns a value outside [0, 1], and a policy endpoint that stays
 * down. A failed episode writes no line and posts no reward; the run goes on, names each failure,
 * rejects with SwarmEpisodesFailedError, and the same call runs exactly those episodes again.
 * Rewards are posted once, after their line is on disk, with `Idempotency-Key` (spec §10.6).
 * Everything is real: loopback HTTP servers, a scorer module on disk, the rollout file.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveOptions } from '@parl/core';
import { startChatEndpoint, type ChatEndpoint } from '@parl/test-support/chat-endpoint';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { swarmRun, SwarmEpisodesFailedError, SWARM_RUN_OPTIONS } from '../src/index.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir('swarm-episode-errors');
});
afterAll(async () => {
  await dir.remove();
});

/** A trainer's reward endpoint on loopback that records each request's rollout, body and Idempotency-Key. */
async function rewardServer(): Promise<{ url: string; got: { key: string | undefined; rollout: unknown; reward: unknown }[]; close(): Promise<void> }> {
  const got: { key: string | undefined; rollout: unknown; reward: unknown }[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      const key = req.headers['idempotency-key'];
      got.push({ key: typeof key === 'string' ? key : undefined, rollout: body['rollout_id'], reward: body['reward'] });
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/reward`, got, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function tasksFile(name: string, ids: readonly string[], scorer?: string): Promise<string> {
  const path = join(dir.path, name);
  await writeFile(path, ids.map((id) => `${JSON.stringify({ id, prompt: `What is ${id}?`, answer: 'x', ...(scorer === undefined ? {} : { scorer }) })}\n`).join(''));
  return path;
}

const linesOf = async (path: string): Promise<Record<string, unknown>[]> =>
  (await readFile(path, 'utf8')).trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);

async function failureOf(run: Promise<unknown>): Promise<SwarmEpisodesFailedError> {
  const err = await run.then(() => undefined, (e: unknown) => e);
  if (!(err instanceof SwarmEpisodesFailedError)) throw new Error(`expected SwarmEpisodesFailedError, got ${String(err)}`);
  return err;
}

describe('a module scorer that throws, hangs or returns no r_perf in [0, 1]', () => {
  it('writes no line and posts no reward for those episodes; the others are written; the same command runs exactly the failed ones again', async () => {
    // The scorer reads a mode file per task: throw, hang, 1.5; no file: r_perf 1.
    const scorer = join(dir.path, 'score-by-mode.mjs');
    await writeFile(
      scorer,
      `import { readFileSync } from 'node:fs';
export default async (answer, task) => {
  let mode = 'ok';
  try { mode = readFileSync(new URL('./mode-' + task.id, import.meta.url), 'utf8'); } catch {}
  if (mode === 'throw') throw new TypeError('cannot read the answer');
  if (mode === 'hang') return new Promise(() => {});
  if (mode === 'high') return 1.5;
  return 1;
};\n`,
    );
    for (const [id, mode] of [['t2', 'throw'], ['t3', 'hang'], ['t5', 'high']]) await writeFile(join(dir.path, `mode-${id}`), mode as string);
    const file = await tasksFile('scored-by-module.jsonl', ['t1', 't2', 't3', 't4', 't5']);
    const out = join(dir.path, 'module-rollouts.jsonl');
    const trainer = await rewardServer();
    try {
      const options = resolveOptions(SWARM_RUN_OPTIONS, { model: 'scripted:parallel', 'tasks-file': file, scorer: `module:${scorer}`, 'scorer-timeout': '0.3', out, 'reward-url': trainer.url }, 'flag');
      const failed = await failureOf(swarmRun(options));
      expect(failed.code).toBe('PARL_ERR_EPISODES');
      expect(failed.message).toBe('3 episodes failed (no line and no reward for them): run the same command again to run them again');
      expect(failed.failures.map((f) => [f.task_id, f.code, f.reason])).toEqual([
        ['t2', 'PARL_ERR_SCORE', `scorer module:${scorer} on task t2: it threw TypeError: cannot read the answer`],
        ['t3', 'PARL_ERR_SCORE', `scorer module:${scorer} on task t3: it gave no value within 0.3 s (--scorer-timeout)`],
        ['t5', 'PARL_ERR_SCORE', `scorer module:${scorer} on task t5: it returned r_perf 1.5: expected a number in [0, 1]`],
      ]);
      expect(failed.summary).toMatchObject({ episodes: 2, ran: 2 });
      // The final file holds the groups that finished; no reward was made up for the others.
      expect((await linesOf(out)).map((l) => l['task_id'])).toEqual(['t1', 't4']);
      expect(trainer.got).toEqual([
        { key: 't1/rollout-0', rollout: 't1/rollout-0', reward: expect.any(Number) },
        { key: 't4/rollout-0', rollout: 't4/rollout-0', reward: expect.any(Number) },
      ]);

      // Mended, the same command runs exactly the three that failed, and posts only their rewards.
      for (const id of ['t2', 't3', 't5']) await rm(join(dir.path, `mode-${id}`));
      const summary = await swarmRun(options);
      expect(summary).toMatchObject({ episodes: 5, ran: 3, resumed: 2 });
      expect((await linesOf(out)).map((l) => l['task_id'])).toEqual(['t1', 't2', 't3', 't4', 't5']);
      expect(trainer.got.slice(2).map((g) => g.key)).toEqual(['t2/rollout-0', 't3/rollout-0', 't5/rollout-0']);
    } finally {
      await trainer.close();
    }
  });
});

describe('the judge', () => {
  const judged = async (name: string, judgeUrl: string, extra: Record<string, string> = {}) => {
    const file = await tasksFile(`${name}.jsonl`, ['q1', 'q2'], 'judge');
    const out = join(dir.path, `${name}-rollouts.jsonl`);
    const options = resolveOptions(SWARM_RUN_OPTIONS, { model: 'scripted:parallel', 'tasks-file': file, 'judge-base-url': judgeUrl, 'judge-model': 'grader', out, ...extra }, 'flag');
    return { out, run: swarmRun(options) };
  };

  it('a judge that cannot be reached fails its episodes (never r_perf 0), each named, and nothing is written', async () => {
    const down = await startChatEndpoint(() => ({ text: 'unused' }));
    const url = down.baseURL;
    await down.close();
    const { out, run } = await judged('judge-down', url);
    const failed = await failureOf(run);
    expect(failed.failures.map((f) => f.task_id)).toEqual(['q1', 'q2']);
    expect(failed.failures[0]?.reason).toMatch(/^scorer judge on task q1: the judge judge\.chat\/grader gave no reply: model judge\.chat\/grader failed after 3 attempts: /);
    await expect(readFile(out, 'utf8')).resolves.toBe('');
  });

  it('a judge that does not answer within --request-timeout and its retries fails the episode in seconds, not minutes', async () => {
    let asked = 0;
    const hangs: ChatEndpoint = await startChatEndpoint(() => {
      asked++;
      return new Promise(() => undefined);
    });
    try {
      const { run } = await judged('judge-hangs', hangs.baseURL, { 'request-timeout': '0.2' });
      const failed = await failureOf(run);
      expect(failed.failures.map((f) => f.task_id)).toEqual(['q1', 'q2']);
      expect(failed.failures[0]?.reason).toMatch(/gave no reply: model judge\.chat\/grader failed after 3 attempts/);
      // Each grading made its 3 attempts, each abandoned at the request timeout.
      expect(asked).toBe(6);
    } finally {
      await hangs.close();
    }
  });

  it('a judge that answers garbage is asked again, then r_perf 0 with score.error: graded incorrect, the line written', async () => {
    const garbage = await startChatEndpoint(() => ({ text: 'I would rather not say.' }));
    try {
      const { out, run } = await judged('judge-garbage', garbage.baseURL);
      await run;
      const lines = await linesOf(out);
      expect(lines.map((l) => [l['task_id'], l['r_perf']])).toEqual([['q1', 0], ['q2', 0]]);
      expect((lines[0]?.['score'] as Record<string, unknown>)['error']).toBe('the judge\'s reply did not parse (no "correct: yes|no") after 3 attempts');
      expect(garbage.requests).toHaveLength(6);
    } finally {
      await garbage.close();
    }
  });
});

describe('a policy endpoint that stays down', () => {
  it('fails each episode past its retries: no line, each task named, the run goes on to the next task', async () => {
    const down = await startChatEndpoint(() => ({ status: 503, body: 'overloaded' }));
    try {
      const file = await tasksFile('policy-down.jsonl', ['p1', 'p2']);
      const out = join(dir.path, 'policy-down-rollouts.jsonl');
      const options = resolveOptions(SWARM_RUN_OPTIONS, { 'base-url': down.baseURL, model: 'policy', 'subagent-model': 'scripted:lookup', 'tasks-file': file, out }, 'flag');
      const failed = await failureOf(swarmRun(options));
      expect(failed.failures.map((f) => [f.task_id, f.code])).toEqual([['p1', 'PARL_ERR_PROVIDER'], ['p2', 'PARL_ERR_PROVIDER']]);
      expect(failed.failures[1]?.reason).toMatch(/^model .*policy failed after 3 attempts: HTTP 503/);
      // Both episodes were tried: 3 attempts each.
      expect(down.requests).toHaveLength(6);
      await expect(readFile(out, 'utf8')).resolves.toBe('');
    } finally {
      await down.close();
    }
  });
});

describe('rewards posted once (spec §10.6)', () => {
  it('an episode interrupted before its line is written posts no reward; the resumed run posts it once, with its Idempotency-Key', async () => {
    // The scorer of t1 stops the run while t1 is being scored: its line is never written.
    const controller = new AbortController();
    (globalThis as { parlTestStop?: () => void }).parlTestStop = () => controller.abort();
    const scorer = join(dir.path, 'stops-the-run.mjs');
    await writeFile(scorer, 'export default (answer, task) => { if (task.id === "t1") globalThis.parlTestStop?.(); return 0.5; };\n');
    const file = await tasksFile('interrupted.jsonl', ['t0', 't1']);
    const out = join(dir.path, 'interrupted-rollouts.jsonl');
    const trainer = await rewardServer();
    try {
      const options = resolveOptions(SWARM_RUN_OPTIONS, { model: 'scripted:parallel', 'tasks-file': file, scorer: `module:${scorer}`, out, 'reward-url': trainer.url }, 'flag');
      await expect(swarmRun(options, { signal: controller.signal })).rejects.toMatchObject({ code: 'PARL_ERR_INTERRUPTED' });
      // Let the interrupted episode finish in the background: it must neither write nor post.
      await new Promise((r) => setTimeout(r, 200));
      expect(trainer.got.map((g) => g.key)).toEqual(['t0/rollout-0']);
      expect((await linesOf(`${out}.partial`)).map((l) => l['task_id'])).toEqual(['t0']);
      delete (globalThis as { parlTestStop?: () => void }).parlTestStop;
      await swarmRun(options);
      expect(trainer.got).toEqual([
        { key: 't0/rollout-0', rollout: 't0/rollout-0', reward: expect.any(Number) },
        { key: 't1/rollout-0', rollout: 't1/rollout-0', reward: expect.any(Number) },
      ]);
    } finally {
      await trainer.close();
    }
  });
});
