/**
 * The event loop is not held by one large request: a large trace is mapped (record, finding and
 * its independence check) on a labelling thread, so health checks sent after its export are
 * answered before its episode exists; the episode is the one `traceToResult` makes of the spans.
 * Ordering only, over real HTTP on loopback: no timing is asserted.
 */
import { parseExportRequest, readExportRequest, traceToResult } from '@parl/traces';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigTraceExport } from './support/big-trace.js';
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
