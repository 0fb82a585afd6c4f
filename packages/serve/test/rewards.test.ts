/**
 * `POST /v1/rewards`: the records labelled exactly as core's `labelReward` labels them under the
 * query's options (the bytes `parl reward` writes: see packages/cli/test/serve.test.ts), in the
 * body's format; bad input is a 400 naming the record, and nothing of it is logged.
 */
import { readFileSync } from 'node:fs';
import { labelReward, parseSchedule, resolveRewardConfig } from '@parl/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParlServeClient } from '../src/index.js';
import { startServer, type TestServer } from './support/server.js';

const RECORDS = [
  { id: 'ep-1', training_step: 2500, num_subagents: 25, completed_subtasks: 20, success: true, quality: 0.8 },
  { id: 'ep-2', stages: [{ main_steps: 1, sub_steps: [3, 5, 2] }, { main_steps: 1, sub_steps: [{ steps: 4, finished: true }, { steps: 9, finished: false }] }], r_perf: 0.3 },
  { num_subagents: 3, trajectory_features: [0.2, 0.9, 0.4], success: 1 },
];

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s.stop());

describe('POST /v1/rewards', () => {
  it('answers a JSON array with the records labelled by core labelReward under the query options, byte for byte', async () => {
    const res = await s.post('/v1/rewards?lambda1=cosine:0.2:0:5000&total-steps=8000&max-subagents=50&budget=12&on-budget=truncate', JSON.stringify(RECORDS));
    expect(res.status).toBe(200);
    const config = resolveRewardConfig({ lambda1: parseSchedule('cosine:0.2:0:5000'), totalTrainingSteps: 8000, maxSubagents: 50, budget: 12, onBudget: 'truncate' });
    const expected = RECORDS.map((r, i) => labelReward(r, config, `record ${i + 1}`));
    expect(res.text).toBe(`[${expected.map((r) => JSON.stringify(r)).join(',')}]`);
  });

  it('answers NDJSON with NDJSON, training_step in the query overriding each record', async () => {
    const body = RECORDS.map((r) => JSON.stringify(r)).join('\n');
    const res = await s.post('/v1/rewards?training_step=9000', body, { 'content-type': 'application/x-ndjson' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/ndjson/);
    const lines = res.text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, number>);
    expect(lines.map((l) => l['lambda1'])).toEqual(RECORDS.map(() => labelReward({ r_perf: 0 }, { step: 9000 }).lambda1));
    expect(lines[1]?.['critical_steps']).toBe(5 + 1 + 9 + 1);
  });

  it('rejects a bad record with 400 naming its line and field, and logs nothing of the batch', async () => {
    const before = readFileSync(s.logFile, 'utf8');
    const res = await s.post('/v1/rewards', '{"id":"ok","r_perf":1}\n{"id":"bad","stages":[{"main_steps":1,"sub_steps":[-3]}],"r_perf":1}\n', { 'content-type': 'application/x-ndjson' });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({ error: 'line 2: stages[0].sub_steps[0] must be a finite number ≥ 0, got -3' });
    expect(readFileSync(s.logFile, 'utf8')).toBe(before);
    expect((await fetch(`${s.url}/v1/episodes/ok`)).status).toBe(404);
  });

  it('rejects text that is not JSON, an unknown query parameter and a bad schedule with 400', async () => {
    expect(JSON.parse((await s.post('/v1/rewards', '{"r_perf": 1')).text).error).toMatch(/^body must be a JSON array of records/);
    const unknown = await s.post('/v1/rewards?lambda=0.1', '[]');
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.text).error).toBe('query.lambda must be a known query parameter (did you mean lambda1?), got "0.1"');
    const far = await s.post('/get_reward?window=3', JSON.stringify({ query: [], prompts: [], labels: [] }));
    expect(far.status).toBe(400);
    expect(JSON.parse(far.text).error).toMatch(/^query\.window must be one of the known query parameters: max-subagents, lambda1, lambda2, total-steps, training_step, parallel-shape, budget, on-budget, got "3"$/);
    const twice = await s.post('/v1/rewards?budget=1&budget=2', '[]');
    expect(twice.status).toBe(400);
    expect(JSON.parse(twice.text).error).toMatch(/budget must be string/);
    const schedule = await s.post('/v1/rewards?lambda1=linear:0.1', '[]');
    expect(schedule.status).toBe(400);
    expect(JSON.parse(schedule.text).error).toMatch(/query\.lambda1/);
    const shape = await s.post('/v1/rewards?parallel-shape=cubic', '[]');
    expect(JSON.parse(shape.text).error).toBe('query.parallel-shape must be one of linear, log, got "cubic"');
  });

  it('answers 400 naming the record for a value nested too deeply to write back, and goes on serving', async () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const res = await s.post('/v1/rewards', `[{"r_perf":1},{"id":"deep","r_perf":1,"extra":${deep}}]`);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({ error: 'record 2: record must be nested at most a few thousand levels deep, got "(a value nested too deeply to write)"' });
    expect((await s.post('/v1/rewards', '[{"r_perf":1}]')).status).toBe(200);
  });

  it('sheds load with 503 and Retry-After when more bodies wait for a labelling thread than maxQueuedBodies', async () => {
    const busy = await startServer({ labelThreads: 1, maxQueuedBodies: 1 });
    try {
      const body = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: `q${i}`, stages: [{ main_steps: 1, sub_steps: [3, 5, 2] }], r_perf: 0.5 })));
      const answers = await Promise.all(Array.from({ length: 30 }, async () => fetch(`${busy.url}/v1/rewards`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })));
      const refused = answers.filter((r) => r.status === 503);
      expect(refused.length).toBeGreaterThan(0);
      expect(answers.every((r) => r.status === 200 || r.status === 503)).toBe(true);
      expect(refused[0]?.headers.get('retry-after')).toBe('1');
      expect(await refused[0]?.json()).toEqual({ error: 'busy: 1 bodies are waiting to be labelled already (maxQueuedBodies); retry shortly' });
      const served = answers.find((r) => r.status === 200);
      expect((JSON.parse((await served?.text()) ?? '[]') as unknown[]).length).toBe(2000);
      expect((await busy.post('/v1/rewards', '[{"r_perf":1}]')).status).toBe(200);
      // The TypeScript client waits as Retry-After says and sends again: every call gets its answer.
      const client = new ParlServeClient({ url: busy.url });
      const records = JSON.parse(body) as Record<string, unknown>[];
      const all = await Promise.all(Array.from({ length: 12 }, async () => client.rewards(records)));
      expect(all.map((a) => a.length)).toEqual(Array.from({ length: 12 }, () => 2000));
      const noRetry = new ParlServeClient({ url: busy.url, retries: 0 });
      const outcomes = await Promise.allSettled(Array.from({ length: 30 }, async () => noRetry.rewards(records)));
      expect(outcomes.some((o) => o.status === 'rejected' && String(o.reason).includes('503 busy'))).toBe(true);
    } finally {
      await busy.stop();
    }
    await expect(startServer({ maxQueuedBodies: 0 })).rejects.toThrow('options.maxQueuedBodies must be a decimal integer ≥ 1, got "0"');
  });

  it('bounds the bytes of bodies waiting for labelling (maxQueuedBodyBytes): over it a 503 counted in parl_bodies_shed_total, one body always let in', async () => {
    const body = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: `b${i}`, stages: [{ main_steps: 1, sub_steps: [3, 5, 2] }], r_perf: 0.5 })));
    // Smaller than one body: only a body arriving while none is in is labelled.
    const tight = await startServer({ labelThreads: 1, maxQueuedBodies: 256, maxQueuedBodyBytes: 1024 });
    try {
      expect((await tight.post('/v1/rewards', body)).status).toBe(200);
      const answers = await Promise.all(Array.from({ length: 20 }, async () => fetch(`${tight.url}/v1/rewards`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })));
      const refused = answers.filter((r) => r.status === 503);
      expect(refused.length).toBeGreaterThan(0);
      expect(answers.every((r) => r.status === 200 || r.status === 503)).toBe(true);
      expect(await refused[0]?.json()).toEqual({ error: 'busy: the bodies waiting to be labelled would pass 1024 bytes (maxQueuedBodyBytes); retry shortly' });
      const metrics = await (await fetch(`${tight.url}/metrics`)).text();
      expect(metrics).toContain(`parl_bodies_shed_total{reason="bytes"} ${refused.length}`);
    } finally {
      await tight.stop();
    }
    await expect(startServer({ maxQueuedBodyBytes: 0 })).rejects.toThrow('options.maxQueuedBodyBytes must be a decimal integer ≥ 1, got "0"');
  });

  it('logs each record with an id before answering, and finds it by id after a restart', async () => {
    const res = await s.post('/v1/rewards', JSON.stringify([{ id: 'kept-1', r_perf: 0.5 }, { r_perf: 0.25 }]));
    expect(res.status).toBe(200);
    const logged = readFileSync(s.logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { t: string; id?: string });
    expect(logged.filter((e) => e.id === 'kept-1')).toHaveLength(1);
    s = await s.restart();
    const episode = (await (await fetch(`${s.url}/v1/episodes/kept-1`)).json()) as { labelled: Record<string, unknown> };
    expect(episode.labelled).toEqual(JSON.parse(res.text)[0]);
  });

  it('answers, logs and holds the same bytes when labelling on the event loop (labelThreads 0) as on a thread', async () => {
    const body = JSON.stringify([{ id: 'naïve-✓', note: 'ünïcödé 🚀', stages: [{ main_steps: 2, sub_steps: [4, 1] }], r_perf: 0.75 }, ...RECORDS.slice(1)]);
    const onThread = await s.post('/v1/rewards?training_step=12', body);
    const loop = await startServer({ labelThreads: 0 });
    try {
      const onLoop = await loop.post('/v1/rewards?training_step=12', body);
      expect(onLoop.status).toBe(200);
      expect(onLoop.text).toBe(onThread.text);
      const lastLine = (file: string): string => readFileSync(file, 'utf8').trim().split('\n').at(-1) ?? '';
      expect(lastLine(loop.logFile)).toBe(lastLine(s.logFile));
      for (const server of [s, loop]) {
        const held = (await (await fetch(`${server.url}/v1/episodes/${encodeURIComponent('naïve-✓')}`)).json()) as { labelled: Record<string, unknown> };
        expect(held.labelled).toEqual(JSON.parse(onThread.text)[0]);
      }
    } finally {
      await loop.stop();
    }
    expect(s.server.options.labelThreads).toBeGreaterThanOrEqual(1);
    await expect(startServer({ labelThreads: -1 })).rejects.toThrow('options.labelThreads must be a decimal integer from 0 to 64, got "-1"');
  });

  it('reads each held record back as it was answered, for whole and sliced bodies, JSON and NDJSON (held as posted, labelled again with the query\'s options when read)', async () => {
    const query = '?lambda1=cosine:0.2:0:5000&training_step=700&budget=12&on-budget=truncate';
    // Over 1 MiB: labelled a slice at a time; the small one in one go.
    const many = Array.from({ length: 14000 }, (_, i) => ({ note: ' ü '.repeat(i % 5), ...(RECORDS[i % 2] as Record<string, unknown>), id: `held-${i}` }));
    const bodies = [
      { text: JSON.stringify(RECORDS.slice(0, 2).map((r) => ({ ...r, id: `small-${String(r['id'])}` }))), type: 'application/json' },
      { text: ` [ ${many.slice(0, 7000).map((r) => JSON.stringify(r, null, 1)).join(' ,\n ')} ] `, type: 'application/json' },
      { text: `${many.slice(7000).map((r) => ` ${JSON.stringify(r)}\t`).join('\r\n')}\n`, type: 'application/x-ndjson' },
      // Lines read trimmed: a byte order mark and no-break spaces around a record.
      { text: `\uFEFF${JSON.stringify({ ...RECORDS[0], id: 'bom-1' })}\n\u00A0${JSON.stringify({ ...RECORDS[1], id: 'nbsp-2' })}\u00A0\n`, type: 'application/x-ndjson' },
    ];
    for (const big of bodies.slice(1, 3)) expect(Buffer.byteLength(big.text)).toBeGreaterThan(1 << 20);
    for (const { text, type } of bodies) {
      const res = await s.post(`/v1/rewards${query}`, text, { 'content-type': type });
      expect(res.status).toBe(200);
      const answered = (type === 'application/json' ? JSON.parse(res.text) : res.text.trim().split('\n').map((l) => JSON.parse(l))) as Record<string, unknown>[];
      const picks = [0, 1, answered.length - 1, Math.floor(answered.length / 2)];
      for (const k of picks) {
        const labelled = answered[k] as Record<string, unknown>;
        const episode = await (await fetch(`${s.url}/v1/episodes/${String(labelled['id'])}`)).text();
        expect(episode).toBe(JSON.stringify({ id: labelled['id'], record: labelled, labelled }));
      }
    }
  });
});
