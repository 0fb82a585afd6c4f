/**
 * Faults on loopback: a 1 GB body is refused (413) without being read, a client that goes away
 * mid-body leaves nothing behind, shutdown drains a request in flight, and kill -9 under load
 * loses no acknowledged episode.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { appendFileSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startServer } from './support/server.js';

const CHILD = fileURLToPath(new URL('./support/serve-child.mjs', import.meta.url));

describe('faults', () => {
  it('answers 413 to a 1 GB body from its Content-Length, having read a small part of it at most', async () => {
    const s = await startServer({ bodyLimit: 1024 * 1024 });
    try {
      const { port } = new URL(s.url);
      const GB = 1024 ** 3;
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const result = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
        let sent = 0;
        let status = 0;
        const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/rewards', headers: { 'content-type': 'application/json', 'content-length': GB } }, (res) => {
          status = res.statusCode ?? 0;
          res.resume();
          res.on('end', () => {
            req.destroy();
            resolve({ status, sent });
          });
        });
        req.on('error', () => resolve({ status, sent }));
        // A generator's worth of chunks, written while the socket takes them; never 1 GB in memory.
        function* body(): Generator<Buffer> {
          for (let n = 0; n < GB; n += chunk.length) yield chunk;
        }
        const it = body();
        const pump = (): void => {
          for (;;) {
            if (status !== 0 || req.destroyed) return;
            const next = it.next();
            if (next.done === true) {
              req.end();
              return;
            }
            sent += next.value.length;
            if (!req.write(next.value)) return void req.once('drain', pump);
          }
        };
        pump();
        setTimeout(() => reject(new Error('no answer')), 20_000).unref();
      });
      expect(result.status).toBe(413);
      expect(result.sent).toBeLessThan(GB / 4);
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it('keeps nothing of a request whose client went away mid-body, and serves the next one', async () => {
    const s = await startServer();
    try {
      const before = readFileSync(s.logFile, 'utf8');
      await new Promise<void>((resolve) => {
        const socket = connect(Number(new URL(s.url).port), '127.0.0.1', () => {
          socket.write('POST /v1/rewards HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[{"id":"half","r_perf":');
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 50);
        });
      });
      expect((await s.post('/v1/rewards', '[{"id":"whole","r_perf":1}]')).status).toBe(200);
      const after = readFileSync(s.logFile, 'utf8').slice(before.length);
      expect(after).toContain('"whole"');
      expect(after).not.toContain('"half"');
    } finally {
      await s.stop();
    }
  });

  it('drains a request in flight on close: it is answered and logged, and new ones are refused', async () => {
    const s = await startServer();
    const { port } = new URL(s.url);
    // The server has the request (routed, reading its body) once its 'request' event fires; only
    // then is it closed, and only after that does the rest of the body go out. No sleeps: on a
    // busy machine a request whose headers had not arrived yet would rightly get a 503.
    const received = new Promise<void>((resolve) => s.server.app.server.once('request', () => resolve()));
    let finish: () => void = () => {};
    const answer = new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/rewards', headers: { 'content-type': 'application/json', 'content-length': 26 } }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
      });
      req.on('error', reject);
      req.write('[{"id":"late",');
      finish = () => req.end('"r_perf":1}]');
    });
    await received;
    const closing = s.server.close();
    finish();
    const answered = await answer;
    await closing;
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body)[0].id).toBe('late');
    // Its connection is closed, so a keep-alive client does not hold the shutdown open.
    expect(answered.connection).toBe('close');
    expect(readFileSync(s.logFile, 'utf8')).toContain('"late"');
    await expect(fetch(`${s.url}/healthz`)).rejects.toThrow();
  });

  it('starts from a log with damaged lines: each is skipped with a warning naming its line, the rest is replayed', async () => {
    const first = await startServer();
    expect((await first.post('/v1/rewards', '[{"id":"before","r_perf":1}]')).status).toBe(200);
    await first.server.close();
    appendFileSync(first.logFile, ['{"t":"otlp","protobuf":"!!not base64 protobuf!!"}', '{"t":"otlp","request":5}', '{"t":"reward","id":"cut', '{"t":"reward","id":"after","record":{"r_perf":0.5}}', ''].join('\n'));
    const warnings: string[] = [];
    const again = await startServer({ logFile: first.logFile, onWarning: (w) => warnings.push(w) }, first.dir);
    try {
      expect(warnings).toHaveLength(3);
      // Line 1 is the log's header, line 2 the first entry.
      expect(warnings[0]).toMatch(/line 3 skipped: /);
      expect(warnings[1]).toMatch(/line 4 skipped: the request: resourceSpans must be an OTLP export request/);
      expect(warnings[2]).toMatch(/line 5 skipped: /);
      for (const id of ['before', 'after']) expect((await fetch(`${again.url}/v1/episodes/${id}`)).status).toBe(200);
    } finally {
      await again.stop();
    }
  });

  it('loses no acknowledged episode when killed with SIGKILL under load, and replays them all at restart', async () => {
    const s = await startServer();
    await s.server.close();
    const child = spawn(process.execPath, [CHILD, s.logFile, 'always'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim())));
    const acknowledged: string[] = [];
    let stop = false;
    const worker = async (w: number): Promise<void> => {
      for (let batch = 0; !stop; batch++) {
        const ids = Array.from({ length: 64 }, (_, i) => `w${w}-b${batch}-r${i}`);
        try {
          const res = await fetch(`${url}/v1/rewards`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ids.map((id) => ({ id, r_perf: 0.5, num_subagents: 3 }))) });
          if (res.status === 200) {
            await res.text();
            acknowledged.push(...ids);
          }
        } catch {
          return; // the server is gone
        }
      }
    };
    const workers = [0, 1, 2, 3].map(worker);
    while (acknowledged.length < 64 * 40) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGKILL');
    stop = true;
    await Promise.all(workers);
    const again = await startServer({ logFile: s.logFile }, s.dir);
    try {
      expect(again.server.service.replayed).toBeGreaterThanOrEqual(acknowledged.length);
      const missing = acknowledged.filter((id) => again.server.service.store.get(id) === undefined);
      expect(missing).toEqual([]);
    } finally {
      await again.stop();
    }
  });
});
