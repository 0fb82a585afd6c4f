/**
 * The one retry helper honours a server's `Retry-After`: with a backoff far longer than the test
 * may take, a call that is answered `429` / `503` with `Retry-After: 0` still succeeds on its next
 * attempt — for a model call (through a real provider on loopback) and for a reward report.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startChatEndpoint } from '@parl/test-support/chat-endpoint';
import { describe, expect, it } from 'vitest';
import { endpointModel } from '../src/index.js';
import { postReward } from '../src/rollouts/reward-report.js';
import type { SampleLine } from '../src/rollouts/rollout-file.js';
import { agentToolsOf } from '../src/runtime/agent-tools.js';
import { chatModelCaller } from '../src/runtime/model-call.js';
import { retryAfterMs } from '../src/runtime/retries.js';
import { Conversation } from '../src/runtime/transcript.js';

/** A backoff no test waits out. */
const PATIENT = { attempts: 2, baseDelayMs: 600_000, timeoutMs: 10_000 };

describe('Retry-After', () => {
  it('reads retry-after-ms, Retry-After in seconds and as an HTTP date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs({ 'retry-after': '2' })).toBe(2000);
    const inTenSeconds = retryAfterMs({ 'retry-after': new Date(Date.now() + 10_000).toUTCString() }) ?? 0;
    expect(inTenSeconds).toBeGreaterThan(8000);
    expect(inTenSeconds).toBeLessThanOrEqual(10_000);
    expect(retryAfterMs({})).toBeUndefined();
  });

  it('a model call answered 429 with Retry-After: 0 is retried at once and succeeds', async () => {
    const endpoint = await startChatEndpoint((_, index) => (index === 0 ? { status: 429, headers: { 'retry-after': '0' } } : { text: 'answer' }));
    try {
      const caller = chatModelCaller(endpointModel(endpoint.baseURL, 'm', {}), { retry: PATIENT });
      const reply = await caller.call({ system: 's', conversation: new Conversation('s', 'q'), tools: agentToolsOf([]), signal: new AbortController().signal });
      expect(reply.text).toBe('answer');
      expect(reply.attempts).toBe(2);
      expect(endpoint.requests).toHaveLength(2);
    } finally {
      await endpoint.close();
    }
  });

  it('a reward report answered 503 with Retry-After: 0 is retried at once and taken', async () => {
    let posts = 0;
    const trainer = createServer((req, res) => {
      req.resume();
      if (++posts === 1) res.writeHead(503, { 'retry-after': '0' }).end('busy');
      else res.end('{}');
    });
    await new Promise<void>((r) => trainer.listen(0, '127.0.0.1', r));
    try {
      const line = { id: 't/rollout-0', task_id: 't', group_id: 't', sample: 0, total_reward: 1 } as unknown as SampleLine;
      expect(await postReward(`http://127.0.0.1:${(trainer.address() as AddressInfo).port}/r`, line, PATIENT)).toBeUndefined();
      expect(posts).toBe(2);
    } finally {
      trainer.close();
    }
  });
});
