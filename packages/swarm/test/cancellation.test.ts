/**
 * Cancellation (spec §10.6): an aborted signal stops an episode mid-run — its in-flight model,
 * tool and judge calls are aborted, no record, line or reward is made — whether it came through
 * `EpisodeSettings.signal`, a run's signal or the AI SDK's `abortSignal` of `SwarmAgent`.
 * The model is a real endpoint on loopback whose sub-agent call never answers.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startChatEndpoint, type ChatEndpoint, type ChatReply, type ChatRequest } from '@parl/test-support/chat-endpoint';
import { afterEach, describe, expect, it } from 'vitest';
import { endpointModel, generateSuite, runEpisode, SwarmAgent, type SwarmTask, type ToolProvider } from '../src/index.js';
import { judgeOnModel } from '../src/jobs/judge-endpoint.js';
import { runRollouts } from '../src/rollouts/run-rollouts.js';
import { judgeScorer } from '../src/scoring/judge-scorer.js';
import { tableScorer } from '../src/scoring/table-scorer.js';
import type { AnswerTable } from '../src/scoring/accepted-answer.js';
import { scriptedMock, settingsWith } from './support.js';

const [task] = generateSuite('wide', { tasks: 1, seed: 5, entities: 2, attributes: 1 }) as [SwarmTask];

/** The orchestrator defines and assigns one sub-agent; the sub-agent's call hangs. */
function delegateThenHang(request: ChatRequest): ChatReply {
  const orchestrator = (request.tools ?? []).some((t) => t.function.name === 'assign_task');
  if (!orchestrator) return { hang: true };
  if (request.messages.some((m) => m.role === 'tool')) return { text: 'final' };
  return { toolCalls: [['create_subagent', { name: 'a', system_prompt: 'You look things up.' }], ['assign_task', { agent: 'a', prompt: 'go' }]] };
}

/** Resolves once `endpoint` has `n` requests. */
async function requestsReach(endpoint: ChatEndpoint, n: number): Promise<void> {
  while (endpoint.requests.length < n) await new Promise((r) => setTimeout(r, 5));
}

let endpoint: ChatEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

describe('a cancelled episode', () => {
  it('aborts the in-flight model call and rejects with the signal\'s reason: no record', async () => {
    endpoint = await startChatEndpoint(delegateThenHang);
    const model = endpointModel(endpoint.baseURL, 'm', {});
    const cancel = new AbortController();
    const running = runEpisode(task, settingsWith({ orchestrator: model, subagentModel: model, signal: cancel.signal }));
    await requestsReach(endpoint, 2);
    const reason = new Error('Ctrl-C');
    cancel.abort(reason);
    await expect(running).rejects.toBe(reason);
    await new Promise((r) => setTimeout(r, 20));
    expect(endpoint.abandoned).toBe(1);
    expect(endpoint.requests).toHaveLength(2);
  });

  it('aborts an in-flight tool call: the tool\'s signal fires', async () => {
    let started!: () => void;
    const toolStarted = new Promise<void>((r) => (started = r));
    let toolSignal: AbortSignal | undefined;
    const waits: ToolProvider = {
      name: 'waits',
      tools: [{
        name: 'wait',
        description: 'Waits until it is stopped.',
        inputSchema: { type: 'object', properties: {} },
        check: (input) => ({ ok: true, value: input }),
        run: (_input, context) => {
          toolSignal = context.signal;
          started();
          return new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true }));
        },
      }],
    };
    const cancel = new AbortController();
    const running = runEpisode(task, settingsWith({ orchestrator: scriptedMock([[['wait', {}]], 'final']), toolProviders: [waits], signal: cancel.signal }));
    await toolStarted;
    cancel.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(toolSignal?.aborted).toBe(true);
  });

  /** Cancel an episode whose grade waits on a judge that never answers: it rejects with the reason and the judge's request is abandoned. */
  async function expectJudgeAborted(scorerOf: (judge: ReturnType<typeof judgeOnModel>) => SwarmTask['score']): Promise<void> {
    endpoint = await startChatEndpoint(() => ({ hang: true }));
    const judged: SwarmTask = { ...task, score: scorerOf(judgeOnModel(endpointModel(endpoint.baseURL, 'judge', {}))) };
    const cancel = new AbortController();
    const running = runEpisode(judged, settingsWith({ orchestrator: scriptedMock(['final']), signal: cancel.signal }));
    await requestsReach(endpoint, 1);
    const reason = new Error('SIGTERM');
    cancel.abort(reason);
    await expect(running).rejects.toBe(reason);
    await new Promise((r) => setTimeout(r, 20));
    expect(endpoint.abandoned).toBe(1);
  }

  it('aborts the judge\'s in-flight request: no score, no record', async () => {
    await expectJudgeAborted((judge) => (answer, signal) => judgeScorer(judge).score(answer, task, signal));
  });

  it('aborts a table\'s judge column in flight: no score, no record', async () => {
    const answer: AnswerTable = { columns: ['city', 'note'], unique_columns: ['city'], rows: [['Paris', 'the capital']], metrics: { note: 'judge' } };
    const table = '| city | note |\n| --- | --- |\n| Paris | its capital city |';
    await expectJudgeAborted((judge) => (_answer, signal) => tableScorer(judge).score(table, { ...task, answer }, signal));
  });

  it('stops SwarmAgent mid-run through the AI SDK\'s abortSignal', async () => {
    endpoint = await startChatEndpoint(delegateThenHang);
    const model = endpointModel(endpoint.baseURL, 'm', {});
    const agent = new SwarmAgent({ model, tools: task.tools });
    const cancel = new AbortController();
    const running = agent.generate({ prompt: task.prompt, abortSignal: cancel.signal });
    await requestsReach(endpoint, 2);
    cancel.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    await new Promise((r) => setTimeout(r, 20));
    expect(endpoint.abandoned).toBe(1);
  });

  it('writes no line and posts no reward for a run cancelled mid-episode', async () => {
    endpoint = await startChatEndpoint(delegateThenHang);
    let posts = 0;
    const trainer = createServer((req, res) => {
      posts++;
      req.resume();
      res.end('{}');
    });
    await new Promise<void>((r) => trainer.listen(0, '127.0.0.1', r));
    const model = endpointModel(endpoint.baseURL, 'm', {});
    const cancel = new AbortController();
    const lines: unknown[] = [];
    const running = runRollouts([task], settingsWith({ orchestrator: model, subagentModel: model }), {
      groupSize: 1,
      signal: cancel.signal,
      onLine: (line) => void lines.push(line),
      rewardUrl: `http://127.0.0.1:${(trainer.address() as AddressInfo).port}/reward`,
    });
    await requestsReach(endpoint, 2);
    cancel.abort();
    await expect(running).rejects.toMatchObject({ name: 'RolloutsInterruptedError' });
    await new Promise((r) => setTimeout(r, 20));
    expect(endpoint.abandoned).toBe(1);
    expect(lines).toEqual([]);
    expect(posts).toBe(0);
    trainer.close();
  });
});
