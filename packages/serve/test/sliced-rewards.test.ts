/**
 * `POST /v1/rewards` bodies over 1 MiB are checked whole, then labelled and sent a slice at a time
 * (issue 29: memory bounded to a multiple of the body, not of its answer), over real HTTP on
 * loopback: the answer is core `labelReward`'s, byte for byte, in the body's format, on a thread and
 * on the event loop; every record with an id is logged and held; a bad record anywhere is a 400
 * with nothing of the body logged or held.
 */
import { readFileSync } from 'node:fs';
import { labelReward } from '@parl/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './support/server.js';

/** About `bytes` of small records (an id on every other one), so a body holds many slices' worth. */
function records(bytes: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const r = { ...(i % 2 === 0 ? { id: `big-${i}` } : {}), training_step: i % 900, num_subagents: 1 + (i % 30), completed_subtasks: i % 30, assigned_subtasks: 1 + (i % 30), r_perf: (i % 10) / 10, note: `é ${i} "q" [x]` };
    out.push(r);
    size += JSON.stringify(r).length + 1;
  }
  return out;
}

const RECORDS = records(3 * 1024 * 1024);
const expected = RECORDS.map((r, i) => JSON.stringify(labelReward(r, {}, `record ${i + 1}`)));

let threads: TestServer;
let loop: TestServer;
beforeAll(async () => {
  threads = await startServer({ labelThreads: 1 });
  loop = await startServer({ labelThreads: 0 });
});
afterAll(async () => {
  await threads.stop();
  await loop.stop();
});

function loggedIds(s: TestServer): string[] {
  return readFileSync(s.logFile, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { t: string; id?: string })
    .filter((e) => e.t === 'reward')
    .map((e) => e.id as string);
}

describe('POST /v1/rewards, a body of several slices', () => {
  for (const [name, get] of [['on a thread', () => threads], ['on the event loop', () => loop]] as const) {
    it(`answers a 3 MiB JSON array (pretty-printed too) and NDJSON byte for byte as core labelReward, ${name}`, async () => {
      const s = get();
      const compact = JSON.stringify(RECORDS);
      expect(compact.length).toBeGreaterThan(3 * 1024 * 1024);
      const a = await s.post('/v1/rewards', compact);
      expect(a.status).toBe(200);
      expect(a.text).toBe(`[${expected.join(',')}]`);
      const pretty = await s.post('/v1/rewards', JSON.stringify(RECORDS, null, 2));
      expect(pretty.text).toBe(`[${expected.join(',')}]`);
      const nd = await s.post('/v1/rewards', RECORDS.map((r) => JSON.stringify(r)).join('\n'), { 'content-type': 'application/x-ndjson' });
      expect(nd.status).toBe(200);
      expect(nd.text).toBe(`${expected.join('\n')}\n`);
      // Every record with an id is logged and held, once per body.
      const ids = RECORDS.filter((r) => r['id'] !== undefined).map((r) => r['id'] as string);
      expect(loggedIds(s).slice(-ids.length)).toEqual(ids);
      const held = s.server.service.store.get(ids[ids.length - 1] as string);
      expect(held?.labelled ?? held?.record).toBeDefined();
    }, 120_000);

    it(`refuses a 3 MiB body whose last record is bad with one 400 naming it, nothing logged or held, ${name}`, async () => {
      const s = get();
      const bad = [...RECORDS.map((r) => ({ ...r, id: `bad-${String(r['id'] ?? '')}` })), { id: 'bad-last', r_perf: 'high' }];
      const before = readFileSync(s.logFile, 'utf8');
      const res = await s.post('/v1/rewards', JSON.stringify(bad));
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text)).toEqual({ error: `record ${bad.length}: r_perf must be a finite number, got "high"` });
      expect(readFileSync(s.logFile, 'utf8')).toBe(before);
      expect(s.server.service.store.get('bad-big-0')).toBeUndefined();
      // A broken element after a bad record: the document is refused as not JSON, as before.
      const broken = `${JSON.stringify(bad).slice(0, -1)},{"r_perf":tru}]`;
      const doc = await s.post('/v1/rewards', broken);
      expect(doc.status).toBe(400);
      expect(JSON.parse(doc.text).error).toMatch(/^body must be a JSON array of records, one record, or NDJSON \(/);
    }, 120_000);
  }
});
