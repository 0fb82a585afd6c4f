/**
 * `GET /healthz` (the process answers), `GET /readyz` (the log is replayed and the server is not
 * shutting down) and `GET /metrics` (Prometheus text).
 *
 * @module
 */
import type { FastifyInstance } from 'fastify';
import type { ParlService } from '../service.js';

/** Register the health and metrics routes; `ready()` tells whether the server takes work. */
export function healthRoutes(app: FastifyInstance, service: ParlService, ready: () => boolean): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (!ready()) return reply.code(503).send({ status: 'shutting down' });
    return { status: 'ready', replayed_log_entries: service.replayed, open_traces: service.intake.openTraces, episodes_in_memory: service.store.size };
  });
  app.get('/metrics', async (_request, reply) => {
    const text = await service.metrics.registry.metrics();
    return reply.type(service.metrics.registry.contentType).send(text);
  });
}
