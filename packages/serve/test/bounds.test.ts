/**
 * Every buffer a client can fill has a stated bound (issue 24 items 9, 10, 16), over real HTTP on
 * loopback: OTLP attributes nested 2,000 deep are a 400 naming the bound; spans of traces whose
 * root never comes are held up to `maxSpansPerTrace` / `maxOpenSpans`, evictions counted; a
 * dashboard client that never reads is disconnected once `maxStreamBufferBytes` wait for it;
 * many stalled dashboard clients hold `maxStreamBufferTotalBytes` over all of them at most (issue 29).
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startServer } from './support/server.js';

async function metric(url: string, line: RegExp): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = line.exec(text);
  return m?.[1] === undefined ? 0 : Number(m[1]);
}

function span(trace: string, id: string, parent: string | undefined): Record<string, unknown> {
  return {
    traceId: trace,
    spanId: id,
    ...(parent === undefined ? {} : { parentSpanId: parent }),
    name: 'chat',
    startTimeUnixNano: '1735732800000000000',
    endTimeUnixNano: '1735732801000000000',
    attributes: [{ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } }],
  };
}

const body = (spans: Record<string, unknown>[]): string => JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

describe('bounds', () => {
  it('answers 400 naming the depth bound for attributes nested 2,000 deep, and stays up', async () => {
    const s = await startServer({ labelThreads: 0 });
    try {
      const n = 2000;
      const deep = `${'{"kvlistValue":{"values":[{"key":"k","value":'.repeat(n)}{"stringValue":"x"}${'}]}}'.repeat(n)}`;
      const text = `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"${hex(1, 32)}","spanId":"${hex(1, 16)}","name":"root","startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[{"key":"deep","value":${deep}}]}]}]}]}`;
      const res = await s.post('/v1/traces', text);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text).error).toMatch(/attribute "deep" must be attribute values nested at most 64 levels/);
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it('holds at most maxSpansPerTrace spans of a rootless trace and maxOpenSpans in all, counting each eviction', async () => {
    const s = await startServer({ labelThreads: 0, maxSpansPerTrace: 5, maxOpenSpans: 12 });
    try {
      const root = hex(9999, 16);
      // One trace with 8 spans, its root never sent: evicted at the sixth.
      const big = Array.from({ length: 8 }, (_, i) => span(hex(1, 32), hex(i + 1, 16), root));
      expect((await s.post('/v1/traces', body(big))).status).toBe(200);
      expect(await metric(s.url, /^parl_traces_evicted_total\{reason="trace-spans"\} (\d+)$/m)).toBe(1);
      expect(await metric(s.url, /^parl_open_spans (\d+)$/m)).toBe(0);
      // Four rootless traces of 4 spans: 16 > 12, so the oldest go.
      for (let t = 2; t <= 5; t++) {
        const spans = Array.from({ length: 4 }, (_, i) => span(hex(t, 32), hex(t * 100 + i, 16), root));
        expect((await s.post('/v1/traces', body(spans))).status).toBe(200);
      }
      expect(await metric(s.url, /^parl_open_spans (\d+)$/m)).toBeLessThanOrEqual(12);
      expect(await metric(s.url, /^parl_traces_evicted_total\{reason="open-spans"\} (\d+)$/m)).toBe(1);
    } finally {
      await s.stop();
    }
  });

  it('disconnects a dashboard client that never reads once maxStreamBufferBytes wait for it, counted in parl_event_streams_dropped_total', async () => {
    const s = await startServer({ labelThreads: 0, maxStreamBufferBytes: 64 * 1024, eventIntervalMs: 5 });
    const { port } = new URL(s.url);
    const socket = connect(Number(port), '127.0.0.1');
    try {
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write('GET /events HTTP/1.1\r\nHost: x\r\n\r\n');
      // Never read: the socket is paused, so the kernel's buffers fill, then the server's.
      socket.pause();
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      let gone = false;
      void closed.then(() => (gone = true));
      // Episodes at many training steps make each snapshot large (tens of kB); bounded in count.
      for (let batch = 0; batch < 2000 && !gone; batch++) {
        const records = Array.from({ length: 50 }, (_, i) => ({ training_step: (batch * 50 + i) % 500, r_perf: 0.5, num_subagents: i % 7 }));
        expect((await s.post('/v1/rewards', JSON.stringify(records))).status).toBe(200);
        if ((await metric(s.url, /^parl_event_streams_dropped_total\{reason="stream"\} (\d+)$/m)) > 0) break;
      }
      expect(await metric(s.url, /^parl_event_streams_dropped_total\{reason="stream"\} (\d+)$/m)).toBe(1);
      // A client that reads gets its snapshot as before.
      const res = await fetch(`${s.url}/events`);
      const reader = res.body?.getReader();
      const first = await reader?.read();
      expect(new TextDecoder().decode(first?.value)).toMatch(/^data: \{"seconds":/);
      await reader?.cancel();
    } finally {
      socket.destroy();
      await s.stop();
    }
  });

  it('holds at most maxStreamBufferTotalBytes over many stalled dashboard clients, disconnecting those furthest behind, counted with reason="total"', async () => {
    const total = 96 * 1024;
    const s = await startServer({ labelThreads: 0, maxStreamBufferBytes: 1024 * 1024, maxStreamBufferTotalBytes: total, eventIntervalMs: 5 });
    const { port } = new URL(s.url);
    const sockets = Array.from({ length: 8 }, () => connect(Number(port), '127.0.0.1'));
    try {
      await Promise.all(sockets.map((socket) => new Promise<void>((resolve) => socket.once('connect', () => resolve()))));
      for (const socket of sockets) {
        socket.write('GET /events HTTP/1.1\r\nHost: x\r\n\r\n');
        socket.pause();
      }
      let largest = 0;
      for (let batch = 0; batch < 2000; batch++) {
        const records = Array.from({ length: 50 }, (_, i) => ({ training_step: (batch * 50 + i) % 500, r_perf: 0.5, num_subagents: i % 7 }));
        expect((await s.post('/v1/rewards', JSON.stringify(records))).status).toBe(200);
        largest = Math.max(largest, await metric(s.url, /^parl_event_stream_buffered_bytes (\d+)$/m));
        if ((await metric(s.url, /^parl_event_streams_dropped_total\{reason="total"\} (\d+)$/m)) >= 3) break;
      }
      expect(await metric(s.url, /^parl_event_streams_dropped_total\{reason="total"\} (\d+)$/m)).toBeGreaterThanOrEqual(3);
      // No stream came near its own bound: the total bound did the dropping, and held.
      expect(await metric(s.url, /^parl_event_streams_dropped_total\{reason="stream"\} (\d+)$/m)).toBe(0);
      expect(largest).toBeLessThanOrEqual(total);
      // A client that reads gets its snapshot as before.
      const res = await fetch(`${s.url}/events`);
      const reader = res.body?.getReader();
      const first = await reader?.read();
      expect(new TextDecoder().decode(first?.value)).toMatch(/^data: \{"seconds":/);
      await reader?.cancel();
    } finally {
      for (const socket of sockets) socket.destroy();
      await s.stop();
    }
  });
});
