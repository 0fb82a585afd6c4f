/**
 * The one scripted OpenAI-compatible endpoint on 127.0.0.1: a real HTTP server answering
 * `POST /v1/chat/completions` with what a handler decides from the request — text, tool calls,
 * an HTTP error (with headers such as `Retry-After`), or no answer at all until the client gives
 * up — so that tests and benchmarks run the swarm end to end over the network (the orchestrator,
 * sub-agents and the LLM judge alike) without a model. It records each request (its
 * `Authorization` header included) and counts requests whose client went away unanswered.
 *
 * @example
 * ```ts
 * const endpoint = await startChatEndpoint((request) => ({ text: 'no idea' }));
 * // parl swarm run --base-url ${endpoint.baseURL} --model m …
 * await endpoint.close();
 * ```
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat message of a request, as the OpenAI chat format has it. */
export interface ChatRequestMessage {
  readonly role: string;
  readonly content?: string | null | readonly { type: string; text?: string }[];
  readonly tool_calls?: readonly { id: string; function: { name: string; arguments: string } }[];
  readonly tool_call_id?: string;
}

/** A chat completions request as the endpoint saw it: its body's fields and its `Authorization` header. */
export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatRequestMessage[];
  readonly tools?: readonly { type: 'function'; function: { name: string } }[];
  /** The `Authorization` header, when one was sent. */
  readonly authorization: string | undefined;
}

/** A scripted tool call: the tool's name and its arguments. */
export type ChatToolCall = readonly [name: string, args: Record<string, unknown>];

/**
 * What the handler answers: a text, tool calls, an HTTP error status (with a body and headers),
 * or `hang` (no answer: the request stays open until the client aborts it or the endpoint closes).
 */
export type ChatReply =
  | { readonly text: string; readonly usage?: { readonly prompt: number; readonly completion: number } }
  | { readonly toolCalls: readonly ChatToolCall[] }
  | { readonly status: number; readonly body?: string; readonly headers?: Readonly<Record<string, string>> }
  | { readonly hang: true };

/** Answers each request (`index`: its place among the endpoint's requests, from 0). */
export type ChatHandler = (request: ChatRequest, index: number) => ChatReply | Promise<ChatReply>;

/** Options of {@link startChatEndpoint}. */
export interface ChatEndpointOptions {
  /** Milliseconds to hold each answer back (default 0), so a test can interrupt a run mid-way. */
  readonly delayMs?: number;
  /** Keep no copy of the requests (a benchmark's thousands of them). Default: keep them. */
  readonly forget?: boolean;
}

/** A running scripted endpoint. */
export interface ChatEndpoint {
  /** `http://127.0.0.1:PORT/v1`. */
  readonly baseURL: string;
  /** The requests received, in order. */
  readonly requests: readonly ChatRequest[];
  /** Requests whose client closed the connection before an answer was sent (an aborted call). */
  readonly abandoned: number;
  /** Stop the server (open requests are cut). */
  close(): Promise<void>;
}

/** The text of a message's content. */
export function messageText(message: ChatRequestMessage | undefined): string {
  const c = message?.content;
  if (c === undefined || c === null) return '';
  return typeof c === 'string' ? c : c.map((p) => p.text ?? '').join('');
}

/** The completion body of a text or tool-call reply. */
function completion(model: string, reply: Extract<ChatReply, { text: string } | { toolCalls: unknown }>, index: number): string {
  const message =
    'text' in reply
      ? { role: 'assistant', content: reply.text }
      : {
          role: 'assistant',
          content: null,
          tool_calls: reply.toolCalls.map(([name, args], i) => ({ id: `call_${index}_${i}`, type: 'function', function: { name, arguments: JSON.stringify(args) } })),
        };
  const usage = 'text' in reply && reply.usage !== undefined ? reply.usage : { prompt: 11, completion: 7 };
  return JSON.stringify({
    id: `chatcmpl-${index}`,
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message, finish_reason: 'text' in reply ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion },
  });
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body: string, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers }).end(body);
}

/**
 * Start a scripted endpoint on a free loopback port.
 *
 * @param handler - the reply to each chat completions request (may be async; default: the text `no idea`)
 * @param options - a delay before each answer, or no record of the requests
 */
export async function startChatEndpoint(handler: ChatHandler = () => ({ text: 'no idea' }), options: ChatEndpointOptions = {}): Promise<ChatEndpoint> {
  const requests: ChatRequest[] = [];
  let count = 0;
  let abandoned = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST' || !(req.url ?? '').endsWith('/chat/completions')) {
      json(res, 404, JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
      return;
    }
    res.once('close', () => {
      if (!res.writableFinished) abandoned++;
    });
    const body = JSON.parse(await bodyOf(req)) as Omit<ChatRequest, 'authorization'>;
    const request: ChatRequest = { ...body, authorization: req.headers.authorization };
    if (options.forget !== true) requests.push(request);
    const index = count++;
    const reply = await handler(request, index);
    if ('hang' in reply) return;
    if ((options.delayMs ?? 0) > 0) await new Promise((r) => setTimeout(r, options.delayMs));
    if ('status' in reply) json(res, reply.status, reply.body ?? JSON.stringify({ error: { message: `scripted HTTP ${reply.status}` } }), reply.headers);
    else json(res, 200, completion(request.model, reply, index));
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) json(res, 500, JSON.stringify({ error: { message: String(err) } }));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    get abandoned() {
      return abandoned;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
