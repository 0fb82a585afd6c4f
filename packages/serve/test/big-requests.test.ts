/**
 * The event loop is not held by one large request: a large trace is mapped (record, finding and
 * its independence check) on a labelling thread, so health checks sent after its export are
 * answered before its episode exists; the episode is the one `traceToResult` makes of the spans.
 * A `/get_reward` body near the body limit is parsed and labelled on a thread: health checks sent
 * once it is handed over are answered while it is worked on, and the answer is core's numbers.
 * Ordering and counts only, over real HTTP on loopback: no timing is asserted.
 */
import { labelReward } from '@parl/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { readFileSync } from 'node:fs';
import { postWithHealthChecks } from './support/health-meanwhile.js';
import { parseExportRequest, readExportRequest, traceToResult } from '@parl/traces';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentTraces } from './support/agent-spans.js';
import { bigTraceExport } from './support/big-trace.js';
import { OTLP_THREAD_BYTES } from '../src/routes/traces.js';
import { startServer, type TestServer } from './support/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ quietPeriodMs: 0, labelThreads: 1 });
});
afterAll(async () => s.stop());

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${s.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(name));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

describe('a large request does not hold the event loop', () => {
  it('maps a 2.5 MB trace on a thread: /healthz is answered before its episode exists, and the episode is what traceToResult makes of it', async () => {
    const traceId = 'b1'.repeat(16);
    const body = bigTraceExport(280, traceId);
    expect(body.length).toBeGreaterThan(2_400_000);
    const posted = await s.post('/v1/traces', body);
    expect(posted.status).toBe(200);
    // The trace is finished at once (quiet period 0): its mapping starts as the answer is sent.
    let answeredBefore = 0;
    while (s.server.service.store.get(traceId) === undefined) {
      const res = await fetch(`${s.url}/healthz`);
      await res.arrayBuffer();
      if (res.status === 200 && s.server.service.store.get(traceId) === undefined) answeredBefore++;
    }
    expect(answeredBefore).toBeGreaterThanOrEqual(1);
    const episode = s.server.service.store.get(traceId);
    const expected = traceToResult(traceId, readExportRequest(parseExportRequest(Buffer.from(body), 'json'), 'parl.rollout_id').reads as never, {});
    expect(JSON.stringify(episode?.record)).toBe(JSON.stringify(expected.record));
    expect(JSON.stringify(episode?.finding)).toBe(JSON.stringify(expected.finding));
    expect(await metric('parl_trace_mappings_total{on="thread"}')).toBe(1);
  }, 120_000);
});

describe('a large /get_reward body does not hold the event loop', () => {
  it('parses and labels a 15 MiB body on a thread: /healthz is answered many times before it, and the answer is core labelReward\'s', async () => {
    const note = 'x'.repeat(250 * 1024);
    const records = Array.from({ length: 60 }, (_, i) => ({ num_subagents: 1 + i, assigned_subtasks: 1 + i, completed_subtasks: i, r_perf: (i % 10) / 10, note }));
    const body = JSON.stringify({ labels: records.map((r, i) => (i % 2 === 0 ? JSON.stringify(r) : r)) });
    expect(body.length).toBeGreaterThan(15_000_000);
    const answer = await postWithHealthChecks(s.url, '/get_reward?training_step=500', body);
    expect(answer.status).toBe(200);
    const expected = records.map((r) => labelReward(r, { step: 500 }));
    const rewards = expected.map((e) => e.total_reward);
    const extra_logs = Object.fromEntries((['r_parallel', 'r_finish', 'r_perf', 'lambda1', 'lambda2'] as const).map((f) => [f, expected.map((e) => e[f])]));
    expect(answer.text).toBe(JSON.stringify({ rewards, scores: rewards, extra_logs }));
    expect(answer.answeredMeanwhile).toBeGreaterThanOrEqual(5);
  }, 120_000);
});

describe('on a thread or on the event loop, the same answers', () => {
  it('answers /get_reward bodies of 64 KiB and more (read on a thread) byte for byte as labelThreads 0 does, and holds and logs the same records', async () => {
    const loop = await startServer({ labelThreads: 0 });
    try {
      for (const server of [s, loop]) await server.post('/v1/rewards', JSON.stringify([{ id: 'seen', num_subagents: 10, success: true, quality: 0.5 }, { id: 7, r_perf: 0.3 }]));
      const pad = ' '.repeat(70 * 1024);
      const bodies = [
        JSON.stringify({ query: ['a', 'b', 'c', 'd'], labels: [JSON.stringify({ num_subagents: 40, assigned_subtasks: 40, completed_subtasks: 30, r_perf: 0.7 }), 'seen', { r_perf: 0.1, id: 'fresh-1' }, '  7 '] }),
        JSON.stringify({ labels: [{ id: 'fresh-2', r_perf: 0.25 }, JSON.stringify({ id: 'fresh-3', success: true, quality: 1 })] }),
        JSON.stringify({ labels: ['{"r_perf": 1,', 'nope'] }),
        JSON.stringify({ labels: ['nope', '{"r_perf": 1, "success": true}'] }),
        JSON.stringify({ query: ['a', 'b'], labels: ['seen'] }),
        '{"labels":[1]}',
        '{"labels":[',
        '[]',
        JSON.stringify({ labels: [{ r_perf: 1e400 }] }),
      ];
      for (const body of bodies) {
        const [onThread, onLoop] = await Promise.all([s.post('/get_reward?training_step=300', body + pad), loop.post('/get_reward?training_step=300', body + pad)]);
        expect(`${onThread.status} ${onThread.text}`).toBe(`${onLoop.status} ${onLoop.text}`);
      }
      for (const id of ['fresh-1', 'fresh-2', 'fresh-3']) {
        const [a, b] = await Promise.all([fetch(`${s.url}/v1/episodes/${id}`).then((r) => r.text()), fetch(`${loop.url}/v1/episodes/${id}`).then((r) => r.text())]);
        expect(a).toBe(b);
        expect(JSON.parse(a).id).toBe(id);
      }
      const logged = (file: string): string[] => readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('"id":"fresh-'));
      expect(logged(s.logFile)).toHaveLength(3);
      expect(logged(s.logFile)).toEqual(logged(loop.logFile));
    } finally {
      await loop.stop();
    }
  }, 120_000);
});

describe('POST /v1/traces read on a thread or on the event loop, the same', () => {
  it('answers, logs and makes the same episodes of large OTLP JSON and protobuf requests (read on a thread) as labelThreads 0 does', async () => {
    const loop = await startServer({ labelThreads: 0, quietPeriodMs: 0 });
    try {
      const big = JSON.parse(bigTraceExport(64, 'c1'.repeat(16))) as { resourceSpans: { resource: unknown; scopeSpans: { spans: Record<string, unknown>[] }[] }[] };
      const spans = big.resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
      // an unreadable span (a partial success), and a rollout id on the root
      spans.push({ traceId: 'c2'.repeat(16), spanId: 'b'.repeat(16), name: 'broken', startTimeUnixNano: 'abc', endTimeUnixNano: '1' });
      (spans[0]?.['attributes'] as unknown[]).push({ key: 'parl.rollout_id', value: { stringValue: 'big-rollout' } });
      const json = JSON.stringify(big);
      expect(json.length).toBeGreaterThan(OTLP_THREAD_BYTES);
      const { spans: sdkSpans } = await agentTraces(420, (i) => `proto-rollout-${i}`);
      const proto = ProtobufTraceSerializer.serializeRequest(sdkSpans) as Uint8Array;
      expect(proto.byteLength).toBeGreaterThan(OTLP_THREAD_BYTES);
      const answers: string[] = [];
      for (const [body, type] of [[json, 'application/json'], [proto, 'application/x-protobuf'], ['{"resourceSpans":' + ' '.repeat(OTLP_THREAD_BYTES) + '7}', 'application/json']] as const) {
        const [a, b] = await Promise.all([s.post('/v1/traces', body, { 'content-type': type }), loop.post('/v1/traces', body, { 'content-type': type })]);
        expect(`${a.status} ${a.headers.get('content-type')} ${a.text}`).toBe(`${b.status} ${b.headers.get('content-type')} ${b.text}`);
        answers.push(`${a.status} ${a.text}`);
      }
      expect(answers[0]).toMatch(/^200 \{"partialSuccess":\{"rejectedSpans":"1"/);
      expect(answers[2]).toMatch(/^400 \{"error":"the request: resourceSpans must be/);
      const client = (url: string) => async (id: string): Promise<string> => {
        for (;;) {
          const res = await fetch(`${url}/v1/episodes/${id}`);
          if (res.status === 200) return res.text();
          await res.arrayBuffer();
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      };
      for (const id of ['big-rollout', 'proto-rollout-0', 'proto-rollout-159']) expect(await client(s.url)(id)).toBe(await client(loop.url)(id));
      const logged = (file: string): string[] => readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('{"t":"otlp"') && (l.includes('c1c1c1') || l.includes('"protobuf"')));
      expect(logged(s.logFile).length).toBeGreaterThanOrEqual(2);
      expect(logged(s.logFile).slice(-2)).toEqual(logged(loop.logFile).slice(-2));
    } finally {
      await loop.stop();
    }
  }, 120_000);
});

describe('large /get_reward and /v1/traces bodies share the labelling threads\' bounds', () => {
  it('answers 503 with Retry-After beyond maxQueuedBodies, counted in parl_bodies_shed_total, and serves the rest', async () => {
    const busy = await startServer({ labelThreads: 1, maxQueuedBodies: 1, quietPeriodMs: 0 });
    try {
      const note = 'n'.repeat(100 * 1024);
      const reward = JSON.stringify({ labels: Array.from({ length: 4 }, (_, i) => JSON.stringify({ r_perf: i / 4, note })) });
      const traces = Array.from({ length: 12 }, (_, i) => bigTraceExport(30, (i + 16).toString(16).repeat(16)));
      const answers = await Promise.all([
        ...Array.from({ length: 12 }, async () => fetch(`${busy.url}/get_reward`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: reward })),
        ...traces.map(async (body) => fetch(`${busy.url}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })),
      ]);
      expect(answers.every((r) => r.status === 200 || r.status === 503)).toBe(true);
      const refused = answers.filter((r) => r.status === 503);
      expect(refused.length).toBeGreaterThan(0);
      expect(answers.some((r) => r.status === 200)).toBe(true);
      expect(refused[0]?.headers.get('retry-after')).toBe('1');
      expect(await refused[0]?.json()).toEqual({ error: 'busy: 1 bodies are waiting to be labelled already (maxQueuedBodies); retry shortly' });
      const metrics = await (await fetch(`${busy.url}/metrics`)).text();
      expect(metrics).toContain(`parl_bodies_shed_total{reason="bodies"} ${refused.length}`);
    } finally {
      await busy.stop();
    }
  }, 120_000);
});
