/**
 * Bearer-token auth, the refusal to listen beyond loopback without a token, body limits (413,
 * gzip counted after unpacking), encodings, and slow headers (408).
 *
 * Only the slow-headers test runs against a server with short timeouts (its own): on a loaded
 * machine a request to such a server can outlast them and be answered 408 before the route that
 * the test means to check (401, 413, …) ever runs.
 */
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createParlServer, isLoopback, resolveServeOptions } from '../src/index.js';
import { startServer, type TestServer } from './support/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ token: 's3cret', bodyLimit: 64 * 1024 });
});
afterAll(async () => s.stop());

const auth = { 'content-type': 'application/json', authorization: 'Bearer s3cret' };

describe('auth', () => {
  it('answers 401 without the token or with a wrong one, and serves with it; the probes need none', async () => {
    expect((await s.post('/v1/rewards', '[]')).status).toBe(401);
    expect((await s.post('/v1/rewards', '[]', { 'content-type': 'application/json', authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await s.post('/v1/rewards', '[]', auth)).status).toBe(200);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${s.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${s.url}/?token=s3cret`)).status).toBe(200);
    expect((await fetch(`${s.url}/v1/episodes/x?token=s3cret`)).status).toBe(401);
  });

  it('answers 401, not 408, to a request whose headers come slowly (as from a loaded machine: 400 ms between two writes)', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(s.url).port), '127.0.0.1');
      let text = '';
      socket.on('data', (d: Buffer) => {
        text += d.toString();
        if (text.includes('\r\n\r\n')) socket.end();
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.write('POST /v1/rewards HTTP/1.1\r\nHost: x\r\n');
      setTimeout(() => socket.write('content-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n[]'), 400);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 401/);
  });

  it('refuses to start on a non-loopback address without a token', async () => {
    expect(isLoopback('127.0.0.1') && isLoopback('::1') && isLoopback('localhost')).toBe(true);
    expect(isLoopback('0.0.0.0')).toBe(false);
    expect(() => resolveServeOptions({ host: '0.0.0.0' })).toThrow(/options\.token must be a bearer token: host 0\.0\.0\.0 is reachable from other machines/);
    await expect(createParlServer({ host: '0.0.0.0', port: 0 })).rejects.toThrow(/bearer token/);
    expect(resolveServeOptions({ host: '0.0.0.0', token: 't' }).host).toBe('0.0.0.0');
  });
});

describe('limits and encodings', () => {
  it('answers 413 for a body over the limit, as sent or after gunzip', async () => {
    const big = JSON.stringify(Array.from({ length: 5000 }, () => ({ r_perf: 0.123456789 })));
    expect(big.length).toBeGreaterThan(64 * 1024);
    const plain = await s.post('/v1/rewards', big, auth);
    expect(plain.status).toBe(413);
    expect(JSON.parse(plain.text).error).toMatch(/larger than the limit of 65536 bytes/);
    const zipped = gzipSync(big);
    expect(zipped.length).toBeLessThan(64 * 1024);
    expect((await s.post('/v1/rewards', zipped, { ...auth, 'content-encoding': 'gzip' })).status).toBe(413);
  });

  it('takes a gzip body, and answers 400 for broken gzip and 415 for an unknown encoding', async () => {
    const ok = await s.post('/v1/rewards', gzipSync(JSON.stringify([{ r_perf: 1 }])), { ...auth, 'content-encoding': 'gzip' });
    expect(ok.status).toBe(200);
    expect((JSON.parse(ok.text) as { total_reward: number }[])[0]?.total_reward).toBe(1 + 0.1 * 0 + 0.1 * 0);
    expect((await s.post('/v1/rewards', 'not gzip at all', { ...auth, 'content-encoding': 'gzip' })).status).toBe(400);
    expect((await s.post('/v1/rewards', '[]', { ...auth, 'content-encoding': 'br' })).status).toBe(415);
  });

  it('answers 408 when the headers do not arrive in time, and closes the connection', async () => {
    const slow = await startServer({ token: 's3cret', headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(slow.url).port), '127.0.0.1');
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.write('POST /v1/rewards HTTP/1.1\r\nHost: x\r\n'); // and never the rest
    }).finally(() => slow.stop());
    expect(reply).toMatch(/^HTTP\/1\.1 408/);
  });
});
