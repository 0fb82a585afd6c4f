/**
 * `parl swarm run --queue`: rollouts through the shared job queue (`@parl/io/queue`, BullMQ) in a
 * real Redis (`redis-server` from Debian, started by the test on a loopback port) with real
 * workers — `@parl/io/queue`'s worker loop running `rolloutJobHandler`, as `parl worker` does —
 * on the AI SDK's mock model (deterministic) and scripted sub-agents: the file equals a local
 * run's, a partial file is resumed, and a Redis that restarts empty mid-run is a named error that
 * a second run recovers from.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveOptions } from '@parl/core';
import { startQueueWorker, type QueueWorkerHandle } from '@parl/io/queue';
import { readTraces } from '@parl/traces';
import { findRedisServer, startRedisServer, type RedisServer } from '@parl/test-support/redis-server';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { startChatEndpoint } from '@parl/test-support/chat-endpoint';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROLLOUT_JOB_NAME, rolloutJobHandler, swarmRun, SWARM_RUN_OPTIONS, type RolloutLine, type SwarmRunOptions } from '../src/index.js';
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { mockWith, numbersOf, result, toolTexts } from './support.js';

const redisLookup = findRedisServer();
const HAVE_REDIS = redisLookup.skipReason === undefined;
if (!HAVE_REDIS) console.warn(`swarm queue tests skipped: ${redisLookup.skipReason}`);

/**
 * A deterministic orchestrator (the AI SDK's mock model): it delegates a number of rows that
 * depends on the task, one sub-agent call each, then answers with what came back. Its tool call
 * ids depend on the conversation only, as a deterministic model's would (test support's counter
 * would number them in the order concurrent episodes happen to call).
 *
 * @param gate - awaited before each call of an episode after the first to start
 */
function delegating(gate?: () => Promise<void>) {
  let episodes = 0;
  return mockWith(async (options) => {
    const user = options.prompt.find((m) => m.role === 'user');
    const prompt = user?.role === 'user' && user.content[0]?.type === 'text' ? user.content[0].text : '';
    const entities = prompt.match(/entities (.*), give/)?.[1]?.split(', ') ?? [];
    const attribute = prompt.match(/give its (.*?)\. The corpus/)?.[1] ?? '';
    const turn = options.prompt.filter((m) => m.role === 'assistant').length;
    if (turn === 0) episodes++;
    if (gate !== undefined && episodes > 1) await gate();
    const calls = (list: readonly (readonly [string, Record<string, string>])[]): LanguageModelV3GenerateResult => ({
      ...result(list),
      content: list.map(([name, args], i) => ({ type: 'tool-call', toolCallId: `call-${turn}-${i}`, toolName: name, input: JSON.stringify(args) })),
    });
    if (turn === 0) return calls([['create_subagent', { name: 'l', system_prompt: 's' }]]);
    if (turn === 1) return calls(entities.slice(0, 1 + (prompt.length % entities.length)).map((e) => ['assign_task', { agent: 'l', prompt: `Find the ${attribute} of ${e}.` }] as const));
    return result(toolTexts(options).filter((t) => t.includes('|')).join('\n'));
  }, 'mock-orchestrator');
}

/** The file without its wall-clock times (`wall_ms`, the one field a run cannot repeat). */
const withoutWall = (text: string): string => text.replace(/"wall_ms":[-+.e0-9]+/g, '"wall_ms":0');

/** A run's options; the suite's seed only when no tasks file is given (--seed beside one is refused). */
const runOptions = (extra: Record<string, string>): SwarmRunOptions =>
  resolveOptions(SWARM_RUN_OPTIONS, { 'base-url': 'http://127.0.0.1:9/v1', model: 'orchestrator', subagents: 'scripted', tasks: '3', 'group-size': '2', ...('tasks-file' in extra ? {} : { seed: '4' }), ...extra }, 'flag');

describe.skipIf(!HAVE_REDIS)('swarm rollouts through a Redis queue', () => {
  let redis: RedisServer | undefined;
  let temp: TempDir | undefined;
  const workers: QueueWorkerHandle[] = [];
  let queueNumber = 0;

  beforeAll(async () => {
    redis = await startRedisServer(redisLookup.path as string);
  }, 30_000);
  afterEach(async () => {
    for (const w of workers.splice(0)) await w.close();
    await temp?.remove();
    temp = undefined;
  }, 30_000);
  afterAll(async () => {
    await redis?.close();
  });

  /** A worker as `parl worker` runs it, counting the jobs it starts. */
  function startWorker(name: string, concurrency: number, gate?: () => Promise<void>): { started: string[] } {
    const started: string[] = [];
    const orchestrator = delegating(gate);
    workers.push(
      startQueueWorker({
        url: (redis as RedisServer).url,
        name,
        concurrency,
        stalledAfterSeconds: 5,
        handlers: { [ROLLOUT_JOB_NAME]: rolloutJobHandler({ models: () => orchestrator }) },
        onEvent: (e) => {
          if (e.kind === 'started') started.push(e.label);
        },
      }),
    );
    return { started };
  }

  it('writes the same lines as a local run, with spans that read back to the same numbers', { timeout: 120_000 }, async () => {
    temp = await makeTempDir('swarm-queue');
    const queueName = `swarm-queue-${++queueNumber}`;
    const local = join(temp.path, 'local.jsonl');
    const orchestrator = delegating();
    await swarmRun(runOptions({ out: local }), { models: () => orchestrator });

    const a = startWorker(queueName, 2);
    const b = startWorker(queueName, 2);
    const queued = join(temp.path, 'queued.jsonl');
    const spans = join(temp.path, 'spans.jsonl');
    const progress: number[] = [];
    const lines: RolloutLine[] = [];
    await swarmRun(runOptions({ out: queued, spans, queue: (redis as RedisServer).url, 'queue-name': queueName }), { onProgress: (d) => void progress.push(d), onLine: (l) => void lines.push(l) });
    const localText = await readFile(local, 'utf8');
    const queuedText = await readFile(queued, 'utf8');
    expect(withoutWall(queuedText)).toBe(withoutWall(localText));
    expect(queuedText).toBe(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
    // Every rollout ran once, on one of the workers; and the groups' rewards differ between tasks.
    expect([...a.started, ...b.started].sort()).toEqual(['rollout wide-s4-0/0', 'rollout wide-s4-0/1', 'rollout wide-s4-1/0', 'rollout wide-s4-1/1', 'rollout wide-s4-2/0', 'rollout wide-s4-2/1']);
    expect(new Set(lines.map((l) => l['num_subagents'])).size).toBeGreaterThan(1);
    // The workers' spans came back: parl trace reads them to the numbers of the lines.
    const back = [];
    for await (const r of readTraces([await readFile(spans, 'utf8')], { onWarning: () => {} })) back.push(numbersOf(r.record));
    expect(back.map((n) => JSON.stringify(n)).sort()).toEqual(lines.map((l) => JSON.stringify(numbersOf(l))).sort());
  });

  it('resumes after a partial file: only the missing rollouts go on the queue', { timeout: 120_000 }, async () => {
    temp = await makeTempDir('swarm-queue');
    const queueName = `swarm-queue-${++queueNumber}`;
    const local = join(temp.path, 'local.jsonl');
    const orchestrator = delegating();
    await swarmRun(runOptions({ out: local }), { models: () => orchestrator });
    const localLines = (await readFile(local, 'utf8')).trim().split('\n');
    // As if an earlier run died after two rollouts, in the middle of writing a third.
    const out = join(temp.path, 'r.jsonl');
    const partial = localLines.slice(0, 2).map((l) => {
      const { advantage: _a, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return `${JSON.stringify(rest)}\n`;
    });
    await writeFile(`${out}.partial`, `${partial.join('')}{"group_id":"wide-s4-1","sam`);

    const worker = startWorker(queueName, 2);
    await swarmRun(runOptions({ out, queue: (redis as RedisServer).url, 'queue-name': queueName }));
    expect(worker.started.sort()).toEqual(['rollout wide-s4-1/0', 'rollout wide-s4-1/1', 'rollout wide-s4-2/0', 'rollout wide-s4-2/1']);
    const text = await readFile(out, 'utf8');
    expect(withoutWall(text)).toBe(withoutWall(await readFile(local, 'utf8')));
    // The resumed lines are kept as they were written, wall time included.
    expect(text.split('\n').slice(0, 2)).toEqual(localLines.slice(0, 2));
    await expect(readFile(`${out}.partial`)).rejects.toThrow(/ENOENT/);
  });

  it('a Redis that restarts empty mid-run is a named error, not a hang; a second run finishes the rest', { timeout: 120_000 }, async () => {
    temp = await makeTempDir('swarm-queue');
    const queueName = `swarm-queue-${++queueNumber}`;
    const server = redis as RedisServer;
    const out = join(temp.path, 'r.jsonl');
    let restarted: Promise<void> | undefined;
    // The worker's second episode waits until Redis is back (empty): the first comes back, the rest are lost.
    startWorker(queueName, 1, async () => {
      while (restarted === undefined) await new Promise((r) => setTimeout(r, 50));
      await restarted;
    });
    const run = swarmRun(runOptions({ out, queue: server.url, 'queue-name': queueName }), {
      onProgress: () => {
        // Redis dies after the first rollout came back and returns with nothing: queue, jobs, sentinel gone.
        restarted ??= server.restart({ empty: true });
      },
    });
    const error = await run.then(
      () => undefined,
      (err: unknown) => err as Error & { failure?: string },
    );
    await restarted;
    expect(error?.name).toBe('QueueError');
    expect(error?.failure).toBe('lost');
    expect(error?.message).toMatch(
      new RegExp(`^Redis at ${server.url.replace(/[/.]/g, '\\$&')} lost queue ${queueName} \\(restarted empty\\?\\) while [1-5] jobs? waited: the finished rollouts are in .*r\\.jsonl\\.partial: run the same parl swarm run again to resume$`),
    );
    const kept = (await readFile(`${out}.partial`, 'utf8')).trim().split('\n');
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(kept.length).toBeLessThan(6);
    await expect(readFile(out)).rejects.toThrow(/ENOENT/);

    // Run again on the fresh Redis: the kept rollouts stay, the others run, and the file is whole.
    await swarmRun(runOptions({ out, queue: server.url, 'queue-name': queueName }));
    const local = join(temp.path, 'local.jsonl');
    const orchestrator = delegating();
    await swarmRun(runOptions({ out: local }), { models: () => orchestrator });
    expect(withoutWall(await readFile(out, 'utf8'))).toBe(withoutWall(await readFile(local, 'utf8')));
  });
  it('a task file\'s rows travel in the jobs, never its path; the workers score them as a local run does, the judge included', { timeout: 120_000 }, async () => {
    temp = await makeTempDir('swarm-queue');
    const queueName = `swarm-queue-${++queueNumber}`;
    const file = join(temp.path, 'tasks.jsonl');
    await writeFile(
      file,
      [
        '{"id":"t-table","prompt":"Radii of Mercury and Venus?","answer":{"columns":["planet","km"],"unique_columns":["planet"],"rows":[["Mercury","2439.7"],["Venus","6051.8"]],"metrics":{"km":"number:1%"}},"metadata":{"n":1}}',
        '{"id":"t-judge","prompt":"Who wrote the Bernoulli program?","answer":"Ada Lovelace","scorer":"judge"}',
      ].join('\n'),
    );
    const answers: Record<string, string> = { 'Radii': 'Mercury | 2440\nVenus | 7000', 'Bernoulli': 'Ada Lovelace' };
    const answering = () => mockWith((options) => {
      const user = options.prompt.find((m) => m.role === 'user');
      const prompt = user?.role === 'user' && user.content[0]?.type === 'text' ? user.content[0].text : '';
      return result(Object.entries(answers).find(([k]) => prompt.includes(k))?.[1] ?? 'no idea');
    }, 'mock-orchestrator');
    const judge = await startChatEndpoint(() => ({ text: 'extracted_final_answer: Ada Lovelace\nreasoning: same.\ncorrect: yes\nconfidence: 99' }));
    try {
      const extra = { 'tasks-file': file, 'judge-base-url': judge.baseURL, 'judge-model': 'grader' };
      const local = join(temp.path, 'local.jsonl');
      await swarmRun(runOptions({ ...extra, out: local }), { models: answering });
      const jobs: string[] = [];
      const handler = rolloutJobHandler({ models: answering });
      workers.push(
        startQueueWorker({
          url: (redis as RedisServer).url,
          name: queueName,
          concurrency: 2,
          stalledAfterSeconds: 5,
          handlers: { [ROLLOUT_JOB_NAME]: { label: handler.label, run: (data) => (jobs.push(JSON.stringify(data)), handler.run(data)) } },
        }),
      );
      const queued = join(temp.path, 'queued.jsonl');
      await swarmRun(runOptions({ ...extra, out: queued, queue: (redis as RedisServer).url, 'queue-name': queueName }));
      expect(withoutWall(await readFile(queued, 'utf8'))).toBe(withoutWall(await readFile(local, 'utf8')));
      const lines = (await readFile(queued, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { task_id: string; r_perf: number; score: { scorer: string } });
      expect(lines.map((l) => [l.task_id, l.r_perf, l.score.scorer])).toEqual([
        ['t-table', 0.5, 'table'],
        ['t-table', 0.5, 'table'],
        ['t-judge', 1, 'judge'],
        ['t-judge', 1, 'judge'],
      ]);
      expect(jobs).toHaveLength(4);
      for (const job of jobs) {
        expect(job).not.toContain(temp.path);
        expect(JSON.parse(job)).toMatchObject({ row: { id: expect.stringMatching(/^t-/) } });
      }
    } finally {
      await judge.close();
    }
  });
});
