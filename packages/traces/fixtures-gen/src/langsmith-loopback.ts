/**
 * A loopback stand-in for the LangSmith API that the real `langsmith` Client posts to: it answers
 * `GET /info` and records every `POST /runs/multipart` (and `/runs/batch`, the SDK's fallback),
 * decoding the multipart body with the platform's own `Response.formData()`, and every OTLP/HTTP
 * protobuf request to `/otel/v1/traces` (where the SDK's OpenTelemetry exporter sends spans), as
 * the bytes received. Nothing else is
 * served: any other request is answered 404 and reported, so that a change in what the SDK sends
 * shows at generation time.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One run operation as the SDK posted it: the run payload with its separately sent fields put back. */
export interface PostedRunOperation {
  operation: 'post' | 'patch';
  run: Record<string, unknown>;
}

/** The most one request body may hold (the scenarios post a few hundred kB at most). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error(`request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks);
  return req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
}

/**
 * The run operations of one multipart body. Parts are named `post.<run id>` / `patch.<run id>`
 * (the run without its large fields) and `post.<run id>.<field>` for `inputs`, `outputs`,
 * `events`, `extra`, `error`, `serialized`; the field parts follow their run's part.
 */
async function operationsOfMultipart(body: Buffer, contentType: string): Promise<PostedRunOperation[]> {
  const form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  const ops = new Map<string, PostedRunOperation>();
  for (const [name, value] of form.entries()) {
    const text = typeof value === 'string' ? value : await value.text();
    const [operation, id, field, ...rest] = name.split('.');
    if ((operation !== 'post' && operation !== 'patch') || id === undefined || rest.length > 0) {
      throw new Error(`unexpected multipart part ${JSON.stringify(name)}`);
    }
    const key = `${operation}.${id}`;
    const parsed: unknown = JSON.parse(text);
    if (field === undefined) {
      ops.set(key, { operation, run: { ...(ops.get(key)?.run ?? {}), ...(parsed as Record<string, unknown>) } });
    } else {
      const op = ops.get(key) ?? { operation, run: {} };
      op.run[field] = parsed;
      ops.set(key, op);
    }
  }
  return [...ops.values()];
}

/** The loopback API: its URL, the operations received so far, and a way to stop it. */
export interface LangSmithLoopback {
  url: string;
  /** The operations received, in the order they arrived; `take()` empties the list. */
  take(): PostedRunOperation[];
  /** The OTLP/HTTP protobuf request bodies received at `/otel/v1/traces`, in order; `takeOtlp()` empties the list. */
  takeOtlp(): Buffer[];
  close(): Promise<void>;
}

/** Start the loopback API on 127.0.0.1 (a free port). */
export async function startLangSmithLoopback(): Promise<LangSmithLoopback> {
  let received: PostedRunOperation[] = [];
  let otlp: Buffer[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      try {
        const path = (req.url ?? '').split('?')[0];
        if (req.method === 'GET' && path === '/info') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version: 'loopback', batch_ingest_config: { use_multipart_endpoint: true } }));
          return;
        }
        if (req.method === 'POST' && path === '/runs/multipart') {
          received.push(...(await operationsOfMultipart(await readBody(req), req.headers['content-type'] ?? '')));
          res.writeHead(202, { 'content-type': 'application/json' }).end('{}');
          return;
        }
        if (req.method === 'POST' && path === '/runs/batch') {
          const batch = JSON.parse((await readBody(req)).toString('utf8')) as { post?: Record<string, unknown>[]; patch?: Record<string, unknown>[] };
          for (const run of batch.post ?? []) received.push({ operation: 'post', run });
          for (const run of batch.patch ?? []) received.push({ operation: 'patch', run });
          res.writeHead(202, { 'content-type': 'application/json' }).end('{}');
          return;
        }
        if (req.method === 'POST' && path === '/otel/v1/traces') {
          if (req.headers['content-type'] !== 'application/x-protobuf') throw new Error(`OTLP content-type ${req.headers['content-type']}`);
          otlp.push(await readBody(req));
          res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
          return;
        }
        console.error(`  langsmith loopback: unexpected ${req.method} ${req.url}`);
        res.writeHead(404).end();
      } catch (err) {
        console.error(`  langsmith loopback: ${(err as Error).message}`);
        res.writeHead(400).end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    take() {
      const out = received;
      received = [];
      return out;
    },
    takeOtlp() {
      const out = otlp;
      otlp = [];
      return out;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
