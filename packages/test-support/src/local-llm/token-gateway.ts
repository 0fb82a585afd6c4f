/**
 * A trainer's gateway in front of an OpenAI-compatible endpoint, as rLLM's model gateway and
 * Agent Lightning's are: each rollout gets its own base URL (`/sessions/{sid}/v1`), every chat
 * call made there is forwarded with `return_token_ids: true` and `logprobs: true` added, and the
 * gateway records, per session, the prompt's and the completion's token ids and the completion's
 * log-probabilities exactly as the endpoint returned them — the trainer's own record, to check a
 * runtime's token trajectories against. Also:
 *
 * - `GET /sessions/{sid}/traces`: the session's calls, in order (rLLM's route);
 * - `GET /sessions`: every session id with its number of calls;
 * - `POST /sessions/{sid}/reward`: a reward report (a JSON object) kept for the session;
 * - `POST /frozen/v1/chat/completions`: forwarded as it is and counted, outside any session (the
 *   frozen sub-agents' engine in a PARL setting: never trained, so never recorded).
 *
 * A tiny random model answers at once more often than not; `forceToolCalls: n` sends each
 * session's first n calls with `tool_choice: "required"`, so that a test sees conversations of
 * several calls (the model still writes every token itself).
 *
 * @module
 */
import Fastify, { type FastifyReply } from 'fastify';

/** One call the gateway recorded. */
export interface GatewayCall {
  readonly prompt_token_ids: readonly number[];
  readonly completion_token_ids: readonly number[];
  /** The completion tokens' log-probabilities (`choices[0].logprobs.content[i].logprob`). */
  readonly logprobs: readonly number[];
  readonly finish_reason: string;
}

/** A running gateway. */
export interface TokenGateway {
  /** `http://127.0.0.1:<port>`: a rollout's base URL is `${url}/sessions/<sid>/v1`. */
  readonly url: string;
  /** Session id → its calls, in order. */
  readonly sessions: ReadonlyMap<string, readonly GatewayCall[]>;
  /** Session id → the reward reports posted for it. */
  readonly rewards: ReadonlyMap<string, readonly Record<string, unknown>[]>;
  /** Calls forwarded on `/frozen/v1` (outside any session). */
  readonly frozenCalls: () => number;
  /** The `authorization` header of each `/frozen/v1` call ('' when none), in order. */
  readonly frozenAuthorizations: readonly string[];
  /** Stop listening. */
  close(): Promise<void>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The call's token record from the endpoint's answer, or a reason it cannot be kept. */
function callOf(body: unknown): GatewayCall | string {
  if (!isRecord(body)) return 'the answer is not a JSON object';
  const choice: unknown = Array.isArray(body['choices']) ? body['choices'][0] : undefined;
  if (!isRecord(choice)) return 'no choices[0]';
  const prompt = body['prompt_token_ids'];
  const completion = choice['token_ids'];
  const content = isRecord(choice['logprobs']) ? choice['logprobs']['content'] : undefined;
  if (!Array.isArray(prompt) || !Array.isArray(completion)) return 'no prompt_token_ids or choices[0].token_ids';
  if (!Array.isArray(content)) return 'no choices[0].logprobs.content';
  return {
    prompt_token_ids: prompt as number[],
    completion_token_ids: completion as number[],
    logprobs: content.map((entry: unknown) => (isRecord(entry) ? (entry['logprob'] as number) : Number.NaN)),
    finish_reason: String(choice['finish_reason']),
  };
}

/**
 * Start a gateway in front of `upstream` (an OpenAI-compatible base URL such as the local
 * endpoint's `http://127.0.0.1:<port>/v1`) on 127.0.0.1.
 */
export async function startTokenGateway(options: { readonly upstream: string; readonly port?: number; readonly forceToolCalls?: number }): Promise<TokenGateway> {
  const upstream = options.upstream.replace(/\/+$/, '');
  const sessions = new Map<string, GatewayCall[]>();
  const rewards = new Map<string, Record<string, unknown>[]>();
  let frozen = 0;
  const frozenAuthorizations: string[] = [];
  const app = Fastify({ bodyLimit: 16 * 1024 * 1024, logger: false });

  async function forward(body: unknown, reply: FastifyReply): Promise<{ status: number; json: unknown }> {
    const res = await fetch(`${upstream}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json: unknown = await res.json();
    reply.code(res.status);
    return { status: res.status, json };
  }

  app.post<{ Params: { sid: string } }>('/sessions/:sid/v1/chat/completions', async (request, reply) => {
    if (!isRecord(request.body)) return reply.code(400).send({ error: { message: 'a JSON object body', type: 'invalid_request_error' } });
    const made = sessions.get(request.params.sid)?.length ?? 0;
    const force = made < (options.forceToolCalls ?? 0) && Array.isArray(request.body['tools']) ? { tool_choice: 'required' } : {};
    const { status, json } = await forward({ ...request.body, ...force, return_token_ids: true, logprobs: true }, reply);
    if (status === 200) {
      const call = callOf(json);
      if (typeof call === 'string') return reply.code(502).send({ error: { message: `the endpoint's answer cannot be recorded: ${call}`, type: 'server_error' } });
      const list = sessions.get(request.params.sid) ?? [];
      list.push(call);
      sessions.set(request.params.sid, list);
    }
    return json;
  });

  app.get<{ Params: { sid: string } }>('/sessions/:sid/traces', async (request, reply) => {
    const calls = sessions.get(request.params.sid);
    return calls === undefined ? reply.code(404).send({ error: `no session ${request.params.sid}` }) : calls;
  });

  app.get('/sessions', async () => Object.fromEntries([...sessions].map(([sid, calls]) => [sid, calls.length])));

  app.post<{ Params: { sid: string } }>('/sessions/:sid/reward', async (request, reply) => {
    if (!isRecord(request.body)) return reply.code(400).send({ error: 'a JSON object body' });
    const list = rewards.get(request.params.sid) ?? [];
    list.push(request.body);
    rewards.set(request.params.sid, list);
    return { ok: true };
  });

  app.get<{ Params: { sid: string } }>('/sessions/:sid/rewards', async (request) => rewards.get(request.params.sid) ?? []);

  app.post('/frozen/v1/chat/completions', async (request, reply) => {
    frozen++;
    frozenAuthorizations.push(request.headers.authorization ?? '');
    return (await forward(request.body, reply)).json;
  });

  app.get('/frozen/calls', async () => ({ calls: frozen }));

  const url = await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  return { url, sessions, rewards, frozenCalls: () => frozen, frozenAuthorizations, close: () => app.close() };
}
