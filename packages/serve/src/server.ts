/**
 * `createParlServer`: the Fastify application with every route of spec §8, its limits, auth,
 * metrics and graceful shutdown, over a {@link ParlService}.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import { TraceInputError } from '@parl/traces';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorized } from './auth.js';
import { readBody } from './body/read-body.js';
import { decodedBody } from './body/gunzip.js';
import { resolveServeOptions, type ResolvedServeOptions, type ServeOptions } from './resolve-options.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { episodeRoutes } from './routes/episodes.js';
import { getRewardRoute } from './routes/get-reward.js';
import { healthRoutes } from './routes/health.js';
import { rewardsRoute } from './routes/rewards.js';
import { isProtobuf } from './body/content-type.js';
import { tracesRoute } from './routes/traces.js';
import { ParlService } from './service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes its body as the bytes received (a `Buffer`, after gunzip) and parses it itself. */
    rawBody?: boolean;
  }
}

/** A running server. */
export interface ParlServer {
  /** `http://host:port`, with the port it got. */
  readonly url: string;
  /** The Fastify instance (for `inject` in tests, or more routes). */
  readonly app: FastifyInstance;
  /** Its state: episodes, open traces, metrics. */
  readonly service: ParlService;
  /** The options in force. */
  readonly options: ResolvedServeOptions;
  /**
   * Stop taking requests (503 from `/readyz` and for new requests), let the ones in flight finish,
   * end the dashboards' event streams, flush and close the episode log.
   */
  close(): Promise<void>;
}

function statusOf(err: unknown): number {
  if (err instanceof ParlInputError || err instanceof TraceInputError) return 400;
  const code = (err as { statusCode?: unknown }).statusCode;
  return typeof code === 'number' && code >= 400 && code < 600 ? code : 500;
}

/** A listen failure said plainly: a busy port or an address this machine does not have is bad input. */
function listenError(err: unknown, options: ResolvedServeOptions): unknown {
  const code = (err as { code?: unknown }).code;
  if (code === 'EADDRINUSE') {
    return new ParlInputError('port', options.port, `a free port: ${options.port} is in use on ${options.host} (another server, often an OpenTelemetry collector on 4318); choose another with --port, or 0 for any free one`);
  }
  if (code === 'EACCES') return new ParlInputError('port', options.port, `a port this user may listen on (ports below 1024 need privileges); choose another with --port`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new ParlInputError('host', options.host, 'an address of this machine (127.0.0.1 by default)');
  return err;
}

function buildApp(service: ParlService, options: ResolvedServeOptions, state: { closing: boolean }, streams: Set<ServerResponse>): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimit,
    requestTimeout: options.requestTimeoutMs,
    http: { headersTimeout: options.headersTimeoutMs, connectionsCheckingInterval: Math.max(50, Math.min(1000, options.headersTimeoutMs / 2)) },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // Reject unknown query parameters and fields (a misspelt option is a 400, not silently dropped).
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!authorized(request, options.token)) {
      return reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'missing or wrong bearer token (Authorization: Bearer <token>)' });
    }
    return undefined;
  });
  app.addHook('preParsing', async (request, _reply, payload) => decodedBody(payload, request.headers['content-encoding']));
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    service.metrics.requests.inc({ route, status: String(reply.statusCode) });
    service.metrics.duration.observe({ route }, reply.elapsedTime / 1000);
  });
  // A response sent while shutting down closes its connection, so that a keep-alive client does
  // not hold the drain open until its idle timeout.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (state.closing) reply.header('connection', 'close');
    return payload;
  });
  app.addHook('preClose', async () => {
    for (const res of streams) res.end();
    streams.clear();
  });

  app.removeAllContentTypeParsers();
  // Bodies are read by readBody (copied into place as they arrive, not joined in one go at the end).
  app.addContentTypeParser('*', (request, payload, done) => {
    readBody(payload, request.headers['content-length'], options.bodyLimit, (err, buffer) => {
      if (err !== null || buffer === undefined) {
        done(err ?? new Error('no body'), undefined);
        return;
      }
      if (request.routeOptions.config.rawBody === true || isProtobuf(request.headers['content-type'])) {
        done(null, buffer);
        return;
      }
      try {
        done(null, JSON.parse(buffer.toString('utf8')) as unknown);
      } catch (parseError) {
        done(Object.assign(new Error(`the body is not valid JSON: ${parseError instanceof Error ? parseError.message : String(parseError)}`), { statusCode: 400 }), undefined);
      }
    });
  });

  app.setErrorHandler((err, _request, reply) => {
    const status = statusOf(err);
    if (status === 413 || status === 408) reply.header('connection', 'close');
    if (status === 503) reply.header('retry-after', '1');
    const message = status === 413 ? `the body is larger than the limit of ${options.bodyLimit} bytes (bodyLimit)` : err instanceof Error ? err.message : String(err);
    // One line always: a parser's message may quote the body, line breaks and all.
    return reply.code(status).send({ error: message.replace(/\s*[\r\n]+\s*/g, ' ') });
  });
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ error: `no route ${request.method} ${request.url.split('?')[0] ?? ''}` }));

  rewardsRoute(app, service);
  getRewardRoute(app, service);
  episodeRoutes(app, service);
  tracesRoute(app, service);
  healthRoutes(app, service, () => !state.closing);
  dashboardRoutes(app, service, streams);
  return app;
}

/**
 * Start a server: check the options, replay the episode log, listen.
 *
 * @throws {@link @parl/core!ParlInputError} for a bad option, a non-loopback host without a token,
 *   a port in use, or a `logFile` that is a folder, in a missing folder, or not an episode log
 *
 * @example
 * ```ts
 * const server = await createParlServer({ port: 0, logFile: 'episodes.jsonl' });
 * console.log(server.url); // http://127.0.0.1:40123
 * await server.close();
 * ```
 */
export async function createParlServer(options: ServeOptions = {}): Promise<ParlServer> {
  const resolved = resolveServeOptions(options);
  const service = await ParlService.start(resolved);
  const state = { closing: false };
  const app = buildApp(service, resolved, state, service.eventStreams);
  try {
    await app.listen({ host: resolved.host, port: resolved.port });
  } catch (err) {
    await service.abandon();
    throw listenError(err, resolved);
  }
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    app,
    service,
    options: resolved,
    close(): Promise<void> {
      closed ??= (async () => {
        state.closing = true;
        await app.close();
        await service.close();
      })();
      return closed;
    },
  };
}
