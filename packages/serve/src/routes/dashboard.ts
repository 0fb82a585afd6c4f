/**
 * `GET /` (the live dashboard) and `GET /events` (its server-sent events: a snapshot at once,
 * then at most one every `eventIntervalMs` while episodes come in). A client that reads
 * slower than that is disconnected once more than `maxStreamBufferBytes` wait to be sent to it
 * (counted in `parl_event_streams_dropped_total`): the server never holds more for one stream.
 *
 * @module
 */
import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import { dashboardHtml, snapshotEvent } from '../dashboard/page.js';
import type { ParlService } from '../service.js';

/** Register the dashboard routes; `streams` holds the open event streams (ended at shutdown). */
export function dashboardRoutes(app: FastifyInstance, service: ParlService, streams: Set<ServerResponse>): void {
  const html = dashboardHtml();
  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(html));

  app.get('/events', (request, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    const bound = service.options.maxStreamBufferBytes;
    let dropped = false;
    const send = (text: string): void => {
      if (dropped || res.destroyed) return;
      if (res.writableLength + Buffer.byteLength(text) > bound) {
        dropped = true;
        service.metrics.streamsDropped.inc();
        res.destroy();
        return;
      }
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
