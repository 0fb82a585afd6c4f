/**
 * `GET /` (the live dashboard) and `GET /events` (its server-sent events: a snapshot at once,
 * then at most one every `eventIntervalMs` while episodes come in). What waits to be sent to the
 * event streams is bounded per stream and over all of them: a client that reads slower than
 * snapshots come is disconnected once more than `maxStreamBufferBytes` wait for it
 * (`parl_event_streams_dropped_total{reason="stream"}`), and when the bytes waiting over all
 * streams would pass `maxStreamBufferTotalBytes`, the streams furthest behind are disconnected
 * until they fit (`reason="total"`): many stalled clients hold the total at most, not one bound each.
 *
 * @module
 */
import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import { dashboardHtml, snapshotEvent } from '../dashboard/page.js';
import type { ParlService } from '../service.js';

/** Bytes HTTP may add to one event-stream write besides its text: chunk framing, or the response headers on the first. */
const WRITE_FRAMING_BYTES = 512;

/** Register the dashboard routes; `streams` holds the open event streams (ended at shutdown). */
export function dashboardRoutes(app: FastifyInstance, service: ParlService, streams: Set<ServerResponse>): void {
  const html = dashboardHtml();
  const total = service.options.maxStreamBufferTotalBytes;
  /** Disconnect a stream for falling behind, counted by the bound it passed. */
  const drop = (res: ServerResponse, reason: 'stream' | 'total'): void => {
    service.metrics.streamsDropped.inc({ reason });
    streams.delete(res);
    res.destroy();
  };
  /**
   * Room for `size` more bytes to `res` within the total: the streams furthest behind are
   * disconnected until the bytes waiting over all streams fit. False when `res` itself went.
   */
  const makeRoom = (res: ServerResponse, size: number): boolean => {
    // The write's own bytes, and what HTTP adds to them (chunk framing; the headers, on a first write).
    let waiting = size + WRITE_FRAMING_BYTES;
    for (const s of streams) waiting += s.writableLength;
    while (waiting > total) {
      let furthest: ServerResponse | undefined;
      for (const s of streams) if (s.writableLength > 0 && (furthest === undefined || s.writableLength > furthest.writableLength)) furthest = s;
      // Nothing waits anywhere: the one snapshot alone passes the total; it is sent (one stream's own bound still holds).
      if (furthest === undefined) return true;
      waiting -= furthest.writableLength;
      drop(furthest, 'total');
      if (furthest === res) return false;
    }
    return true;
  };
  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(html));

  app.get('/events', (request, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    const bound = service.options.maxStreamBufferBytes;
    const send = (text: string): void => {
      if (res.destroyed) return;
      const size = Buffer.byteLength(text);
      if (res.writableLength + size > bound) {
        drop(res, 'stream');
        return;
      }
      if (!makeRoom(res, size)) return;
      res.write(text);
    };
    send(snapshotEvent(service.stats.snapshot()));
    let timer: NodeJS.Timeout | undefined;
    const unsubscribe = service.stats.onChange(() => {
      timer ??= setTimeout(() => {
        timer = undefined;
        send(snapshotEvent(service.stats.snapshot()));
      }, service.options.eventIntervalMs);
    });
    const keepAlive = setInterval(() => send(': keep-alive\n\n'), 15_000);
    keepAlive.unref();
    streams.add(res);
    const stop = (): void => {
      unsubscribe();
      clearInterval(keepAlive);
      if (timer !== undefined) clearTimeout(timer);
      streams.delete(res);
    };
    request.raw.on('close', stop);
    res.on('close', stop);
  });
}
