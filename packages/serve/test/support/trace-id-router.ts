/**
 * A small router in front of several `parl serve` instances, doing what the OpenTelemetry
 * Collector's `loadbalancing` exporter does with `routing_key: traceID` (docs/serve.md, "Running
 * several instances"): each OTLP export is split by trace id, and the spans of one trace always go
 * to the instance a hash of that trace id picks. Episode lookups and outcomes go to the same
 * instance for a trace id, and to whichever instance knows the id otherwise (a rollout id); other
 * requests (stateless rewards) go round-robin.
 *
 * Test support, not part of the package: in production this is the Collector's job.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { decodeOtlpProtobuf } from '@parl/traces';

/** A running router. */
export interface TraceIdRouter {
  readonly url: string;
  /** Export requests forwarded to each instance (one export can become several). */
  readonly forwarded: number[];
  close(): Promise<void>;
}

const TRACE_ID = /^[0-9a-f]{32}$/i;

/** The instance (index) for a trace id: a stable hash of the id, as the Collector's ring does. */
export function instanceOf(traceId: string, instances: number): number {
  return createHash('sha256').update(traceId.toLowerCase()).digest().readUInt32BE(0) % instances;
}

type Json = Record<string, unknown>;

/** Split an OTLP JSON export request into one request per instance, keeping resources and scopes. */
export function splitExport(body: Json, instances: number): Map<number, Json> {
  const parts = new Map<number, Json[]>();
  for (const rs of (body['resourceSpans'] as Json[] | undefined) ?? []) {
    const byInstance = new Map<number, Json[]>();
    for (const ss of (rs['scopeSpans'] as Json[] | undefined) ?? []) {
      const spansBy = new Map<number, Json[]>();
      for (const span of (ss['spans'] as Json[] | undefined) ?? []) {
        const traceId = typeof span['traceId'] === 'string' ? span['traceId'] : '';
        const i = instanceOf(traceId, instances);
        spansBy.set(i, [...(spansBy.get(i) ?? []), span]);
      }
      for (const [i, spans] of spansBy) byInstance.set(i, [...(byInstance.get(i) ?? []), { ...ss, spans }]);
    }
    for (const [i, scopeSpans] of byInstance) parts.set(i, [...(parts.get(i) ?? []), { ...rs, scopeSpans }]);
  }
  return new Map([...parts].map(([i, resourceSpans]) => [i, { resourceSpans }]));
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks);
  return req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['content-type', 'authorization']) {
    const v = req.headers[name];
    if (typeof v === 'string') out[name] = v;
  }
  return out;
}

async function send(res: ServerResponse, answer: Response): Promise<void> {
  res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
  res.end(Buffer.from(await answer.arrayBuffer()));
}

/** Start a router on loopback in front of `targets` (their base URLs). */
export async function startTraceIdRouter(targets: readonly string[]): Promise<TraceIdRouter> {
  const forwarded = targets.map(() => 0);
  let next = 0;

  async function traces(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await bodyOf(req);
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
    const body = (type === 'application/x-protobuf' || type === 'application/protobuf' ? decodeOtlpProtobuf(raw) : JSON.parse(raw.toString('utf8'))) as Json;
    const parts = splitExport(body, targets.length);
    // Forwarded as OTLP JSON (the Collector re-encodes too); answered once every part is.
    const answers = await Promise.all(
      [...parts].map(async ([i, part]) => {
        forwarded[i] = (forwarded[i] ?? 0) + 1;
        const headers = { ...headersOf(req), 'content-type': 'application/json' };
        const r = await fetch(`${targets[i]}/v1/traces`, { method: 'POST', headers, body: JSON.stringify(part) });
        return { status: r.status, body: (await r.json()) as Json };
      }),
    );
    const failed = answers.find((a) => a.status !== 200);
    if (failed !== undefined) {
      res.writeHead(failed.status, { 'content-type': 'application/json' }).end(JSON.stringify(failed.body));
      return;
    }
    const rejected = answers.reduce((n, a) => n + Number((a.body['partialSuccess'] as Json | undefined)?.['rejectedSpans'] ?? 0), 0);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rejected > 0 ? { partialSuccess: { rejectedSpans: String(rejected) } } : {}));
  }

  async function episode(req: IncomingMessage, res: ServerResponse, id: string, path: string): Promise<void> {
    const body = req.method === 'POST' ? new Uint8Array(await bodyOf(req)) : undefined;
    const forward = (i: number): Promise<Response> => fetch(`${targets[i]}${path}`, { method: req.method ?? 'GET', headers: headersOf(req), ...(body === undefined ? {} : { body }) });
    if (TRACE_ID.test(id)) {
      await send(res, await forward(instanceOf(id, targets.length)));
      return;
    }
    // A rollout id: ask each instance which one holds it.
    for (const [i, target] of targets.entries()) {
      const known = await fetch(`${target}/v1/episodes/${encodeURIComponent(id)}`, { headers: headersOf(req) });
      await known.arrayBuffer();
      if (known.status !== 404) {
        await send(res, await forward(i));
        return;
      }
    }
    await send(res, await forward(0));
  }

  async function other(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = req.method === 'POST' ? new Uint8Array(await bodyOf(req)) : undefined;
    const i = next++ % targets.length;
    await send(res, await fetch(`${targets[i]}${path}`, { method: req.method ?? 'GET', headers: headersOf(req), ...(body === undefined ? {} : { body }) }));
  }

  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const pathname = path.split('?')[0] ?? '';
    const ep = /^\/v1\/episodes\/([^/]+)(\/outcome)?$/.exec(pathname);
    const handled = pathname === '/v1/traces' && req.method === 'POST' ? traces(req, res) : ep !== null ? episode(req, res, decodeURIComponent(ep[1] ?? ''), path) : other(req, res, path);
    handled.catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `router: ${err instanceof Error ? err.message : String(err)}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err === undefined ? resolve() : reject(err)));
      }),
  };
}
