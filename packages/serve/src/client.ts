/**
 * A small TypeScript client for `parl serve` (global `fetch`, Node ≥ 20 or a browser).
 *
 * @module
 */
import type { StoredEpisode } from './episodes/episode-store.js';
import type { RewardQuery } from './reward-query.js';

/** How a {@link ParlServeClient} reaches its server. */
export interface ParlServeClientOptions {
  /** The server, e.g. `http://127.0.0.1:4318`. */
  readonly url: string;
  /** The bearer token, when the server has one. */
  readonly token?: string;
  /** The `fetch` to use (default: the global one). */
  readonly fetch?: typeof fetch;
  /**
   * How many times a `503` (a busy server shedding load) is retried, each after the answer's
   * `Retry-After` seconds (at most 30) with jitter (default 8; 0: never).
   */
  readonly retries?: number;
}

/** The answer of `POST /get_reward`. */
export interface GetRewardAnswer {
  /** Total rewards, one per label. */
  readonly rewards: number[];
  /** The same numbers (OpenRLHF reads `scores` for filtering). */
  readonly scores: number[];
  /** The terms, one list each (`r_parallel`, `r_finish`, `r_perf`, `lambda1`, `lambda2`). */
  readonly extra_logs: Record<string, number[]>;
}

/**
 * An error answer of `parl serve`, as {@link ParlServeClient} rejects with it: the HTTP status and
 * the server's `error` message.
 */
export class ParlServeError extends Error {
  /** The codes this class's errors carry (docs/errors.md). */
  static readonly codes = ['PARL_ERR_SERVE_ANSWER'] as const;
  /** The stable code: `PARL_ERR_SERVE_ANSWER` (the HTTP status is {@link ParlServeError.status}). */
  readonly code = 'PARL_ERR_SERVE_ANSWER';

  /**
   * @param status - the HTTP status of the answer
   * @param message - the server's `error` message
   */
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ParlServeError';
  }
}

/**
 * Calls `parl serve`'s endpoints; an error answer rejects with its status and message.
 *
 * @example
 * ```ts
 * const server = await createParlServer({ port: 0 }); // or a running `parl serve` (http://127.0.0.1:4318)
 * const client = new ParlServeClient({ url: server.url });
 * const [labelled] = await client.rewards([{ id: 'r1', num_subagents: 4, r_perf: 1 }], { training_step: '100' });
 * labelled?.id; // "r1"
 * await server.close();
 * ```
 */
export class ParlServeClient {
  private readonly base: string;
  private readonly doFetch: typeof fetch;

  /** @param options - see {@link ParlServeClientOptions} */
  constructor(private readonly options: ParlServeClientOptions) {
    this.base = options.url.replace(/\/+$/, '');
    this.doFetch = options.fetch ?? fetch;
  }

  private async call<T>(method: string, path: string, body?: unknown, query?: RewardQuery): Promise<T> {
    const qs = query === undefined ? '' : `?${new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined)).toString()}`;
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.options.token !== undefined) headers['authorization'] = `Bearer ${this.options.token}`;
    const init = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
    const retries = this.options.retries ?? 8;
    let res = await this.doFetch(`${this.base}${path}${qs}`, init);
    for (let attempt = 1; res.status === 503 && attempt <= retries; attempt++) {
      await res.arrayBuffer();
      const seconds = Math.min(30, Number(res.headers.get('retry-after') ?? 1) || 1);
      await new Promise((r) => setTimeout(r, seconds * 1000 * (0.5 + Math.random())));
      res = await this.doFetch(`${this.base}${path}${qs}`, init);
    }
    const text = await res.text();
    if (!res.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? text;
      } catch {
        // not JSON: the text as it is
      }
      throw new ParlServeError(res.status, `${method} ${path}: ${res.status} ${message}`);
    }
    return JSON.parse(text) as T;
  }

  /** `POST /v1/rewards`: the records labelled as `parl reward` labels them. */
  rewards(records: readonly unknown[], query?: RewardQuery): Promise<Record<string, unknown>[]> {
    return this.call('POST', '/v1/rewards', records, query);
  }

  /** `POST /v1/episodes/{id}/outcome`: the traced episode's labelled record. */
  outcome(id: string, outcome: { success?: boolean | number; quality?: number; r_perf?: number; training_step?: number }, query?: RewardQuery): Promise<Record<string, unknown>> {
    return this.call('POST', `/v1/episodes/${encodeURIComponent(id)}/outcome`, outcome, query);
  }

  /** `GET /v1/episodes/{id}`: the episode, or undefined while unknown (404). */
  async episode(id: string): Promise<StoredEpisode | undefined> {
    try {
      return await this.call<StoredEpisode>('GET', `/v1/episodes/${encodeURIComponent(id)}`);
    } catch (err) {
      if (err instanceof ParlServeError && err.status === 404) return undefined;
      throw err;
    }
  }

  /** `POST /get_reward` (OpenRLHF's protocol): labels are episode ids or records. */
  getReward(labels: readonly (string | Record<string, unknown>)[], query?: RewardQuery): Promise<GetRewardAnswer> {
    return this.call('POST', '/get_reward', { query: labels.map(() => ''), prompts: labels.map(() => ''), labels }, query);
  }

  /** Poll `GET /v1/episodes/{id}` until the episode is known, for at most `timeoutMs`. */
  async waitForEpisode(id: string, timeoutMs = 10_000, everyMs = 50): Promise<StoredEpisode> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const episode = await this.episode(id);
      if (episode !== undefined) return episode;
      if (Date.now() > until) throw new ParlServeError(404, `episode ${id} not known after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }
}
