/**
 * Two instances behind a router by trace id (test/support/trace-id-router.ts, what the
 * OpenTelemetry Collector's `loadbalancing` exporter does with `routing_key: traceID`, as
 * docs/serve.md describes): exports that mix the spans of many traces are split, every episode is
 * assembled whole on exactly one instance, and the two instances' episodes together are the ones a
 * single instance makes of the same exports. Outcomes through the router find their episode.
 */
import { labelReward } from '@parl/core';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParlServeClient } from '../src/index.js';
import { agentTraces } from './support/agent-spans.js';
import { startServer, type TestServer } from './support/server.js';
import { instanceOf, startTraceIdRouter, type TraceIdRouter } from './support/trace-id-router.js';

const TRACES = 24;

let a: TestServer;
let b: TestServer;
let single: TestServer;
let router: TraceIdRouter;
beforeAll(async () => {
  [a, b, single] = await Promise.all([startServer({ quietPeriodMs: 30 }), startServer({ quietPeriodMs: 30 }), startServer({ quietPeriodMs: 30 })]);
  router = await startTraceIdRouter([a.url, b.url]);
});
afterAll(async () => {
  await router?.close();
  await Promise.all([a?.stop(), b?.stop(), single?.stop()]);
});

/** A metric's value on a server (0 when absent). */
async function metric(url: string, line: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? 0 : Number(found.slice(line.length + 1));
}

/** A fixed shuffle (seeded), so that each export mixes spans of many traces. */
function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const out = [...xs];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * The exports: every child span, shuffled across traces, in exports of 9 (JSON and protobuf in
 * turn), then one export of all the root spans, so that no trace can finish before all its spans
 * are in, on any machine speed.
 */
function exportsOf(spans: readonly ReadableSpan[]): { body: Uint8Array; type: string }[] {
  const children = shuffled(
    spans.filter((s) => s.parentSpanContext !== undefined),
    7,
  );
  const roots = spans.filter((s) => s.parentSpanContext === undefined);
  const batches: ReadableSpan[][] = [];
  for (let i = 0; i < children.length; i += 9) batches.push(children.slice(i, i + 9));
  batches.push(roots);
  return batches.map((batch, i) =>
    i % 2 === 0
      ? { body: JsonTraceSerializer.serializeRequest(batch) as Uint8Array, type: 'application/json' }
      : { body: ProtobufTraceSerializer.serializeRequest(batch) as Uint8Array, type: 'application/x-protobuf' },
  );
}

describe('two instances behind a router by trace id', () => {
  it('assembles every episode whole on exactly one instance, and both together equal one instance on the same spans', { timeout: 60_000 }, async () => {
    const { spans, expected } = await agentTraces(TRACES, (i) => `scale-${i}`);
    expect(expected).toHaveLength(TRACES);
    const exports = exportsOf(spans);
    const traceIds = expected.map((e) => e.traceId);
    // Every export but the last holds spans of several traces, and of both instances.
    const instancesIn = (batch: string): Set<number> => new Set(traceIds.filter((id) => batch.includes(id)).map((id) => instanceOf(id, 2)));
    expect(instancesIn(new TextDecoder().decode(exports[0]?.body)).size).toBe(2);

    for (const e of exports) {
      const via = await fetch(`${router.url}/v1/traces`, { method: 'POST', headers: { 'content-type': e.type }, body: e.body });
      expect(via.status).toBe(200);
      expect(await via.json()).toEqual({});
      expect((await single.post('/v1/traces', e.body, { 'content-type': e.type })).status).toBe(200);
    }
    // The router split exports: more requests reached the instances than it was sent.
    expect(router.forwarded.every((n) => n > 0)).toBe(true);
    expect(router.forwarded[0]! + router.forwarded[1]!).toBeGreaterThan(exports.length);

    const viaRouter = new ParlServeClient({ url: router.url });
    const alone = new ParlServeClient({ url: single.url });
    const [clientA, clientB] = [new ParlServeClient({ url: a.url }), new ParlServeClient({ url: b.url })];
    for (const [i, e] of expected.entries()) {
      const routed = await viaRouter.waitForEpisode(e.traceId);
      const reference = await alone.waitForEpisode(e.traceId);
      const [onA, onB] = await Promise.all([clientA.episode(e.traceId), clientB.episode(e.traceId)]);
      // Exactly one instance has it: the one its trace id hashes to.
      expect([onA !== undefined, onB !== undefined]).toEqual(instanceOf(e.traceId, 2) === 0 ? [true, false] : [false, true]);
      // Whole: the same record and finding as the single instance and as @parl/traces on the spans.
      expect({ record: routed.record, finding: routed.finding, rollout: routed.rollout }).toEqual({ record: reference.record, finding: reference.finding, rollout: `scale-${i}` });
      expect(routed.record).toEqual(e.record);
      expect(routed.finding).toEqual(e.finding);
    }

    // Together, the two instances hold what the single one holds, and nothing is left half-open.
    const episodes = 'parl_episodes_total{source="traces"}';
    expect((await metric(a.url, episodes)) + (await metric(b.url, episodes))).toBe(await metric(single.url, episodes));
    expect(await metric(single.url, episodes)).toBe(TRACES);
    expect((await metric(a.url, 'parl_spans_received_total')) + (await metric(b.url, 'parl_spans_received_total'))).toBe(spans.length);
    expect(await metric(a.url, 'parl_open_traces')).toBe(0);
    expect(await metric(b.url, 'parl_open_traces')).toBe(0);
    expect(await metric(a.url, episodes)).toBeGreaterThan(0);
    expect(await metric(b.url, episodes)).toBeGreaterThan(0);

    // An outcome through the router, by rollout id, reaches the episode and labels it as core does.
    for (const i of [0, 1, 2, 3]) {
      const outcome = { success: i % 2 === 0, quality: 0.6, training_step: 300 };
      const labelled = await viaRouter.outcome(`scale-${i}`, outcome);
      expect(labelled).toEqual(labelReward({ ...expected[i]?.record, ...outcome }, {}, 'x'));
      expect(labelled).toEqual(await alone.outcome(`scale-${i}`, outcome));
    }
  });
});
