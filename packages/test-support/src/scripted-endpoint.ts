/**
 * A loopback OpenAI-compatible endpoint (`POST /v1/chat/completions`) whose answers are scripted:
 * real HTTP for tests that run `parl swarm` end to end in milliseconds per episode (the tiny
 * node-llama-cpp model of `./local-llm` is real inference, and slower). It records what each
 * request carried (the `Authorization` header included), and can hold an answer back for a while
 * so a test can interrupt a run mid-way.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** One tool call of a scripted answer. */
export interface ScriptedToolCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** A scripted answer: the final text, or tool calls. */
export type ScriptedAnswer = { readonly text: string } | { readonly toolCalls: readonly ScriptedToolCall[] };

/** A chat request as the endpoint saw it. */
export interface SeenRequest {
  /** The request body's `model`. */
  readonly model: string;
  /** The `Authorization` header, when one was sent. */
  readonly authorization: string | undefined;
  /** The request body's messages. */
  readonly messages: readonly { readonly role: string; readonly content?: unknown }[];
  /** Whether the request offered `assign_task` (the swarm, not the single agent). */
  readonly swarm: boolean;
  /** The names of the tools the request offered. */
  readonly tools: readonly string[];
}

/** Options of {@link startScriptedEndpoint}. */
export interface ScriptedEndpointOptions {
  /** The answer to a request (default: the final text `no idea` at once). */
  readonly answer?: (request: SeenRequest, index: number) => ScriptedAnswer;
  /** Milliseconds to hold each answer back (default 0). */
  readonly delayMs?: number;
}

/** A running scripted endpoint. */
export interface ScriptedEndpoint {
  /** `http://127.0.0.1:<port>/v1`. */
  readonly baseURL: string;
  /** Every chat request so far, in order. */
  readonly requests: readonly SeenRequest[];
  /** Stop listening and end open connections. */
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function completion(model: string, answer: ScriptedAnswer, index: number): object {
  const message =
    'text' in answer
      ? { role: 'assistant', content: answer.text }
      : {
          role: 'assistant',
          content: null,
          tool_calls: answer.toolCalls.map((c, i) => ({ id: `call_${index}_${i}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } })),
        };
  return {
    id: `chatcmpl-${index}`,
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message, finish_reason: 'text' in answer ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

/**
 * Start the endpoint on 127.0.0.1 (a free port).
 *
 * @example
 * ```ts
 * const endpoint = await startScriptedEndpoint();
 * // parl swarm run --base-url ${endpoint.baseURL} --model m …
 * await endpoint.close();
 * ```
 */
export async function startScriptedEndpoint(options: ScriptedEndpointOptions = {}): Promise<ScriptedEndpoint> {
  const requests: SeenRequest[] = [];
  const answer = options.answer ?? (() => ({ text: 'no idea' }));
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
      return;
    }
    const parsed = JSON.parse(await body(req)) as { model?: string; messages?: SeenRequest['messages']; tools?: { function?: { name?: string } }[] };
    const seen: SeenRequest = {
      model: parsed.model ?? '',
      authorization: req.headers.authorization,
      messages: parsed.messages ?? [],
      swarm: (parsed.tools ?? []).some((t) => t.function?.name === 'assign_task'),
      tools: (parsed.tools ?? []).map((t) => t.function?.name ?? ''),
    };
    const index = requests.push(seen) - 1;
    const reply = completion(seen.model, answer(seen, index), index);
    if ((options.delayMs ?? 0) > 0) await new Promise((r) => setTimeout(r, options.delayMs));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: String(err) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
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
