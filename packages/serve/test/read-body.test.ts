/**
 * Request bodies as they arrive (body/read-body.ts): copied into place chunk by chunk when the
 * length is known, joined at the end otherwise (chunked encoding, gzip), with Fastify's checks.
 * Real HTTP on loopback; the answers must not depend on how the body was sent.
 */
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './support/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ labelThreads: 0, bodyLimit: 256 * 1024 });
});
afterAll(async () => {
  await s.stop();
});

/** POST `parts` one write at a time (a pause between them), with or without a Content-Length. */
function send(path: string, parts: readonly Buffer[], headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL(path, s.url);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    let i = 0;
    const next = (): void => {
      if (i === parts.length) {
        req.end();
        return;
      }
      req.write(parts[i++]);
      setTimeout(next, 2);
    };
    next();
  });
}

/** `bytes` cut into `n` pieces, one cut inside a multi-byte character when there is one. */
function pieces(bytes: Buffer, n: number): Buffer[] {
  const out: Buffer[] = [];
  const size = Math.ceil(bytes.length / n);
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

const records = Array.from({ length: 400 }, (_, i) => ({ id: `r${i}-é漢`, stages: [{ main_steps: 1, sub_steps: [i % 5, 2] }], num_subagents: 2, completed_subtasks: 2, r_perf: 0.5 }));
const body = Buffer.from(JSON.stringify(records));

describe('request bodies, however they are sent', () => {
  it('answer the same for one write, many writes with a Content-Length, chunked encoding and gzip', async () => {
    const json = { 'content-type': 'application/json' };
    const whole = await send('/v1/rewards', [body], { ...json, 'content-length': String(body.length) });
    expect(whole.status).toBe(200);
    const split = await send('/v1/rewards', pieces(body, 37), { ...json, 'content-length': String(body.length) });
    const chunked = await send('/v1/rewards', pieces(body, 11), json);
    const zipped = gzipSync(body);
    const gzip = await send('/v1/rewards', pieces(zipped, 5), { ...json, 'content-encoding': 'gzip', 'content-length': String(zipped.length) });
    for (const other of [split, chunked, gzip]) expect(other).toEqual(whole);
    expect(JSON.parse(whole.body)).toHaveLength(400);
  });

  it('answers 413 over the limit, with a Content-Length or without one (chunked), and 400 for a gzip stream that is not gzip', async () => {
    const big = Buffer.alloc(300 * 1024, 0x20);
    expect((await send('/v1/rewards', [big], { 'content-type': 'application/json', 'content-length': String(big.length) })).status).toBe(413);
    const chunked = await send('/v1/rewards', pieces(big, 8), { 'content-type': 'application/json' });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toEqual({ error: 'the body is larger than the limit of 262144 bytes (bodyLimit)' });
    const notGzip = await send('/v1/rewards', [body], { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(body.length) });
    expect(notGzip.status).toBe(400);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  });
});
