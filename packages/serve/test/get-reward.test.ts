/**
 * `POST /get_reward` (OpenRLHF's remote reward protocol): labels as episode ids or records give
 * `{rewards, scores, extra_logs}` with core's numbers; an unknown id is a 400 naming the label.
 */
import { labelReward } from '@parl/core';
import { postWithHealthChecks } from './support/health-meanwhile.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './support/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
  await s.post('/v1/rewards', JSON.stringify([{ id: 'known', num_subagents: 10, success: true, quality: 0.5 }]));
});
afterAll(async () => s.stop());

describe('POST /get_reward', () => {
  it('labels records given as JSON text or objects, and episodes given by id, in label order', async () => {
    const record = { num_subagents: 40, assigned_subtasks: 40, completed_subtasks: 30, r_perf: 0.7 };
    const res = await s.post('/get_reward?training_step=1000', JSON.stringify({ query: ['a', 'b', 'c'], prompts: ['a', 'b', 'c'], labels: [JSON.stringify(record), 'known', { r_perf: 0.1 }] }));
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text) as { rewards: number[]; scores: number[]; extra_logs: Record<string, number[]> };
    const expected = [
      labelReward(record, { step: 1000 }),
      labelReward({ num_subagents: 10, success: true, quality: 0.5 }, { step: 1000 }),
      labelReward({ r_perf: 0.1 }, { step: 1000 }),
    ];
    expect(body.rewards).toEqual(expected.map((e) => e.total_reward));
    expect(body.scores).toEqual(body.rewards);
    expect(body.extra_logs['r_finish']).toEqual(expected.map((e) => e.r_finish));
    expect(body.extra_logs['lambda1']).toEqual(expected.map((e) => e.lambda1));
  });

  it('answers 400 naming the label for an unknown episode id, a bad record, or a label count that does not match the queries', async () => {
    const unknown = await s.post('/get_reward', JSON.stringify({ query: ['q'], prompts: ['p'], labels: ['nope'] }));
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.text).error).toMatch(/^labels\[0\]: label must be the id of a known episode/);
    const bad = await s.post('/get_reward', JSON.stringify({ labels: ['{"r_perf": 1, "success": true}'] }));
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).error).toMatch(/^labels\[0\]: /);
    const count = await s.post('/get_reward', JSON.stringify({ query: ['a', 'b'], labels: ['known'] }));
    expect(count.status).toBe(400);
    const missing = await s.post('/get_reward', JSON.stringify({ query: ['a'] }));
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.text).error).toMatch(/labels/);
  });

  it('words a body that is not JSON or not of the protocol\'s shape as Fastify\'s parser and schema did, in the same order', async () => {
    const cases: [string, string][] = [
      ['{"labels":[', 'the body is not valid JSON: Unexpected end of JSON input'],
      ['[1,2]', 'body must be object'],
      ['null', 'body must be object'],
      ['{"prompts":[1]}', "body must have required property 'labels'"],
      ['{"labels":[],"query":"a"}', 'body/query must be array'],
      ['{"labels":[],"query":[1]}', 'body/query/0 must be string'],
      ['{"labels":[],"prompts":[1]}', 'body/prompts/0 must be string'],
      ['{"labels":"x"}', 'body/labels must be array'],
      ['{"labels":["known",null]}', 'body/labels/1 must be string, body/labels/1 must be object, body/labels/1 must match a schema in anyOf'],
    ];
    for (const [body, error] of cases) {
      // a bad query comes after the body's own errors
      const res = await s.post('/get_reward?training_step=abc', body);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text)).toEqual({ error });
    }
    const query = await s.post('/get_reward?training_step=abc', '{"labels":["known"]}');
    expect(JSON.parse(query.text).error).toMatch(/^query\.training_step must be/);
    const twice = await s.post('/get_reward?training_step=1&training_step=2', '{"labels":["known"]}');
    expect(JSON.parse(twice.text)).toEqual({ error: 'querystring/training_step must be string' });
    const protobuf = await s.post('/get_reward', '{"labels":["known"]}', { 'content-type': 'application/x-protobuf' });
    expect(JSON.parse(protobuf.text)).toEqual({ error: "body must have required property 'labels'" });
    // an unknown id before a bad record is named first; a bad record before an unknown id likewise
    const first = await s.post('/get_reward', JSON.stringify({ labels: ['{"r_perf":1}', 'nope', '{"r_perf":1,"success":true}'] }));
    expect(JSON.parse(first.text).error).toMatch(/^labels\[1\]: label must be the id of a known episode/);
    const second = await s.post('/get_reward', JSON.stringify({ labels: ['{"r_perf":1,"success":true}', 'nope'] }));
    expect(JSON.parse(second.text).error).toMatch(/^labels\[0\]: r_perf must be given in one way only/);
  });

  it('does not hold the event loop while it labels a large body: health checks are answered while it works', async () => {
    // a small body (episode ids: it arrives in a few reads) whose labelling is long
    const body = JSON.stringify({ labels: Array.from({ length: 100_000 }, () => 'known') });
    const answer = await postWithHealthChecks(s.url, '/get_reward', body);
    expect(answer.status).toBe(200);
    expect(answer.answeredMeanwhile).toBeGreaterThanOrEqual(20);
  }, 120_000);
});
