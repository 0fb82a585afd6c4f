/**
 * A scripted OpenAI-compatible endpoint on 127.0.0.1: a real HTTP server answering
 * `POST /v1/chat/completions` with what a handler decides from the request (text, tool calls,
 * or an HTTP error), so that tests run `parl swarm` end to end over the network — the orchestrator,
 * sub-agents and the LLM judge alike — without a model.
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

/** A chat completions request body. */
export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatRequestMessage[];
  readonly tools?: readonly { type: 'function'; function: { name: string } }[];
}

/** What the handler answers: a text, tool calls, or an HTTP error status with a body. */
export type ChatReply =
  | { readonly text: string; readonly usage?: { readonly prompt: number; readonly completion: number } }
  | { readonly toolCalls: readonly (readonly [name: string, args: Record<string, unknown>])[] }
  | { readonly status: number; readonly body?: string };

/** A running scripted endpoint. */
export interface ChatEndpoint {
  /** `http://127.0.0.1:PORT/v1`. */
  readonly baseURL: string;
  /** The requests received, in order. */
  readonly requests: readonly ChatRequest[];
  /** Stop the server. */
  close(): Promise<void>;
}

/** The text of a message's content. */
export function messageText(message: ChatRequestMessage | undefined): string {
  const c = message?.content;
  if (c === undefined || c === null) return '';
  return typeof c === 'string' ? c : c.map((p) => p.text ?? '').join('');
}

let calls = 0;

function send(res: ServerResponse, request: ChatRequest, reply: ChatReply): void {
  if ('status' in reply) {
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(reply.body ?? JSON.stringify({ error: { message: `scripted HTTP ${reply.status}` } }));
    return;
  }
  const message =
    'text' in reply
      ? { role: 'assistant', content: reply.text }
      : {
          role: 'assistant',
          content: null,
          tool_calls: reply.toolCalls.map(([name, args]) => ({ id: `call_${++calls}`, type: 'function', function: { name, arguments: JSON.stringify(args) } })),
        };
  const usage = 'text' in reply && reply.usage !== undefined ? reply.usage : { prompt: 11, completion: 7 };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: `chatcmpl-${calls}`,
      object: 'chat.completion',
      created: 0,
      model: request.model,
      choices: [{ index: 0, message, finish_reason: 'text' in reply ? 'stop' : 'tool_calls' }],
      usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion },
    }),
  );
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Start a scripted endpoint.
 *
 * @param handler - the reply to each chat completions request (may be async)
 */
export async function startChatEndpoint(handler: (request: ChatRequest) => ChatReply | Promise<ChatReply>): Promise<ChatEndpoint> {
  const requests: ChatRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || !(req.url ?? '').endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      const request = JSON.parse(await bodyOf(req)) as ChatRequest;
      requests.push(request);
      try {
        send(res, request, await handler(request));
      } catch (err) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: String(err) } }));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
