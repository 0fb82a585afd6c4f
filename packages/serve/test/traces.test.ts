/**
 * `POST /v1/traces` (OTLP/HTTP JSON and protobuf, gzip): finished traces become episodes equal to
 * what @parl/traces makes of the same spans; found by trace id and rollout id; an outcome labels
 * them; malformed input is a 400; unfinished traces are evicted and counted; all of it replayed.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { labelReward } from '@parl/core';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParlServeClient } from '../src/index.js';
import { agentTraces } from './support/agent-spans.js';
import { startServer, type TestServer } from './support/server.js';

let s: TestServer;
let client: ParlServeClient;
beforeAll(async () => {
  s = await startServer({ quietPeriodMs: 30 });
  client = new ParlServeClient({ url: s.url });
});
afterAll(async () => s.stop());

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${s.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(name));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

describe('POST /v1/traces', () => {
  it('turns OTLP JSON and protobuf (gzip too) exports into the episodes @parl/traces makes of the spans, by trace id and rollout id', async () => {
    const { spans, expected } = await agentTraces(6, (i) => `rollout-${i}`);
    const json = JsonTraceSerializer.serializeRequest(spans.slice(0, 20)) as Uint8Array;
    const proto = ProtobufTraceSerializer.serializeRequest(spans.slice(20)) as Uint8Array;
    const a = await s.post('/v1/traces', json, { 'content-type': 'application/json' });
    expect(a.status).toBe(200);
    expect(JSON.parse(a.text)).toEqual({});
    const b = await s.post('/v1/traces', gzipSync(proto), { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' });
    expect(b.status).toBe(200);
    expect(b.headers.get('content-type')).toBe('application/x-protobuf');
    expect(expected).toHaveLength(6);
    for (const [i, e] of expected.entries()) {
      const episode = await client.waitForEpisode(e.traceId);
      expect(episode.record).toEqual(e.record);
      expect(episode.finding).toEqual(e.finding);
      expect((await client.episode(`rollout-${i}`))?.id).toBe(e.traceId);
    }
    expect(expected.filter((e) => e.finding.serial_collapse)).toHaveLength(3);
  });

  it('labels a traced episode from its outcome, by rollout id, as labelReward labels its record with the outcome', async () => {
    const { spans, expected } = await agentTraces(1, () => 'outcome-rollout');
    await s.post('/v1/traces', JsonTraceSerializer.serializeRequest(spans) as Uint8Array);
    await client.waitForEpisode('outcome-rollout');
    const labelled = await client.outcome('outcome-rollout', { success: true, quality: 0.75, training_step: 1200 });
    expect(labelled).toEqual(labelReward({ ...expected[0]?.record, success: true, quality: 0.75, training_step: 1200 }, {}, 'x'));
    expect((await client.episode('outcome-rollout'))?.labelled).toEqual(labelled);
    const bad = await s.post('/v1/episodes/outcome-rollout/outcome', JSON.stringify({ success: true, r_perf: 1 }));
    expect(bad.status).toBe(400);
    expect((await s.post('/v1/episodes/nobody/outcome', JSON.stringify({ r_perf: 1 }))).status).toBe(404);
    expect((await fetch(`${s.url}/v1/episodes/nobody`)).status).toBe(404);
  });

  it('answers 400 for malformed protobuf, JSON that is not JSON and a body that is not an export request; partial success for unreadable spans', async () => {
    const garbage = await s.post('/v1/traces', new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2]), { 'content-type': 'application/x-protobuf' });
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.text).error).toMatch(/body must be an OTLP protobuf ExportTraceServiceRequest/);
    expect((await s.post('/v1/traces', '{"resourceSpans": [')).status).toBe(400);
    expect((await s.post('/v1/traces', '{"spans": []}')).status).toBe(400);
    const partial = await s.post('/v1/traces', JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'ab', spanId: 'cd', name: 'x' }] }] }] }));
    expect(partial.status).toBe(200);
    expect(JSON.parse(partial.text).partialSuccess.rejectedSpans).toBe('1');
  });

  it('evicts a trace whose root never ends after the timeout, counted in parl_traces_evicted_total', async () => {
    const t = await startServer({ quietPeriodMs: 10, traceTimeoutMs: 40 });
    try {
      const { spans } = await agentTraces(1);
      const rootless = spans.filter((sp) => sp.parentSpanContext !== undefined);
      await t.post('/v1/traces', JsonTraceSerializer.serializeRequest(rootless) as Uint8Array);
      const c = new ParlServeClient({ url: t.url });
      for (let i = 0; i < 200; i++) {
        const text = await (await fetch(`${t.url}/metrics`)).text();
        if (/parl_traces_evicted_total\{reason="timeout"\} 1/.test(text)) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(await (await fetch(`${t.url}/metrics`)).text()).toMatch(/parl_traces_evicted_total\{reason="timeout"\} 1/);
      expect(await (await fetch(`${t.url}/metrics`)).text()).toMatch(/parl_open_traces 0/);
      expect(await c.episode(spans[0]?.spanContext().traceId ?? '')).toBeUndefined();
    } finally {
      await t.stop();
    }
  });

  it('replays acknowledged spans of unfinished traces at start, so they still become episodes', async () => {
    const t = await startServer({ quietPeriodMs: 60_000 });
    const { spans, expected } = await agentTraces(2, (i) => `replayed-${i}`);
    expect((await t.post('/v1/traces', ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array, { 'content-type': 'application/x-protobuf' })).status).toBe(200);
    expect(await new ParlServeClient({ url: t.url }).episode('replayed-0')).toBeUndefined();
    const again = await t.restart({ quietPeriodMs: 10 });
    try {
      const c = new ParlServeClient({ url: again.url });
      expect((await c.waitForEpisode('replayed-1')).record).toEqual(expected[1]?.record);
      // And once an episode, it is replayed as one.
      const third = await again.restart({ quietPeriodMs: 60_000 });
      expect((await new ParlServeClient({ url: third.url }).episode('replayed-0'))?.finding).toEqual(expected[0]?.finding);
      await third.stop();
    } catch (err) {
      await again.stop();
      throw err;
    }
  });

  it('logs a JSON export as it came (pretty-printed too) and replays it; logs written with span entries still replay', async () => {
    const t = await startServer({ quietPeriodMs: 60_000 });
    const { spans, expected } = await agentTraces(3, (i) => `raw-${i}`);
    const pretty = JSON.stringify(JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans.filter((sp) => sp.spanContext().traceId === expected[0]?.traceId)) as Uint8Array)), null, 2).replace(/\n/g, '\r\n');
    expect((await t.post('/v1/traces', pretty, { 'content-type': 'application/json' })).status).toBe(200);
    const logged = readFileSync(t.logFile, 'utf8').trim().split('\n');
    // The header, then the request.
    expect(logged).toHaveLength(2);
    expect(JSON.parse(logged[1] as string)).toEqual({ t: 'otlp', request: JSON.parse(pretty) });
    // A log line as servers before the raw OTLP entry wrote them: the spans, serialised.
    const other = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans.filter((sp) => sp.spanContext().traceId === expected[1]?.traceId)) as Uint8Array)) as { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] };
    const oldSpans = other.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((sc) => sc.spans));
    appendFileSync(t.logFile, `${JSON.stringify({ t: 'spans', spans: oldSpans, rollouts: { [expected[1]?.traceId as string]: 'raw-1' } })}\n`);
    const again = await t.restart({ quietPeriodMs: 10 });
    try {
      const c = new ParlServeClient({ url: again.url });
      expect((await c.waitForEpisode('raw-0')).record).toEqual(expected[0]?.record);
      expect((await c.waitForEpisode('raw-1')).record).toEqual(expected[1]?.record);
    } finally {
      await again.stop();
    }
  });

  it('counts spans in /metrics', async () => {
    expect(await metric('parl_spans_received_total')).toBeGreaterThan(0);
    expect(await metric('parl_spans_rejected_total')).toBe(1);
  });
});
