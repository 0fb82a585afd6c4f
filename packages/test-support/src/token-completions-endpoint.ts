/**
 * A loopback completions endpoint at the token level (`POST /v1/completions` with
 * `prompt: number[]`), as vLLM and SGLang serve token in: each request's prompt ids are recorded
 * and the scripted answer's ids come back as `choices[0].token_ids` with their log-probabilities
 * as `choices[0].logprobs.token_logprobs`. A test scripts the completion's ids (encoded with the
 * model's real tokenizer), so the drift of chat templates is caught at the token where it happens.
 *
 * @module
 */
import { createServer, type IncomingMessage } from 'node:http';

/** A completions request as the endpoint saw it. */
export interface SeenCompletionsRequest {
  readonly model: unknown;
  /** The prompt's token ids. */
  readonly prompt: readonly number[];
  readonly max_tokens: unknown;
  readonly logprobs: unknown;
  readonly return_token_ids: unknown;
}

/** A scripted completion. */
export interface ScriptedCompletion {
  /** Its token ids. */
  readonly ids: readonly number[];
  /** Their log-probabilities (default: −0.5 − i/100 for the i-th id of the run, so every served number differs). */
  readonly logprobs?: readonly number[];
  /** `stop` (default) or `length`. */
  readonly finishReason?: string;
}

/** A running endpoint. */
export interface TokenCompletionsEndpoint {
  /** `http://127.0.0.1:<port>/v1`. */
  readonly baseURL: string;
  /** Every request so far, in order. */
  readonly requests: readonly SeenCompletionsRequest[];
  /** Every log-probability served so far, in order. */
  readonly served: readonly number[];
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Start the endpoint.
 *
 * @param answer - the completion of the `index`-th request, given its prompt ids
 */
export async function startTokenCompletionsEndpoint(answer: (prompt: readonly number[], index: number) => ScriptedCompletion): Promise<TokenCompletionsEndpoint> {
  const requests: SeenCompletionsRequest[] = [];
  const served: number[] = [];
  const server = createServer((req, res) => {
    void bodyOf(req).then((text) => {
      if (req.method !== 'POST' || req.url !== '/v1/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      const body = JSON.parse(text) as Record<string, unknown>;
      const prompt = body['prompt'];
      if (!Array.isArray(prompt) || prompt.some((t) => !Number.isInteger(t))) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'prompt must be token ids' } }));
        return;
      }
      const seen: SeenCompletionsRequest = { model: body['model'], prompt: prompt as number[], max_tokens: body['max_tokens'], logprobs: body['logprobs'], return_token_ids: body['return_token_ids'] };
      const index = requests.length;
      requests.push(seen);
      const c = answer(seen.prompt, index);
      const logprobs = c.logprobs ?? c.ids.map((_, i) => -0.5 - (served.length + i) / 100);
      served.push(...logprobs);
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `cmpl-${index}`,
          object: 'text_completion',
          model: body['model'],
          choices: [{ index: 0, text: '', token_ids: c.ids, logprobs: { token_logprobs: logprobs }, finish_reason: c.finishReason ?? 'stop' }],
          usage: { prompt_tokens: prompt.length, completion_tokens: c.ids.length, total_tokens: prompt.length + c.ids.length },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
