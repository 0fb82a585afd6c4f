/**
 * `POST /get_reward`: OpenRLHF's remote reward model protocol (`--remote_rm_url`). The body is
 * `{query, prompts, labels}`; each label is an episode id (trace id, rollout id or record id) or
 * a spec §5 record (as JSON text or an object). The answer is `{rewards, scores, extra_logs}`,
 * with `rewards` and `scores` the total rewards and `extra_logs` the terms.
 *
 * @module
 */
import { labelReward, ParlInputError, resolveRewardConfig } from '@parl/core';
import type { FastifyInstance } from 'fastify';
import { REWARD_QUERY_SCHEMA, rewardConfigOfQuery, type RewardQuery } from '../reward-query.js';
import type { ParlService } from '../service.js';

/** The body OpenRLHF sends. */
interface GetRewardBody {
  readonly query?: readonly string[];
  readonly prompts?: readonly string[];
  readonly labels: readonly (string | Record<string, unknown>)[];
}

const BODY_SCHEMA = {
  type: 'object',
  required: ['labels'],
  properties: {
    query: { type: 'array', items: { type: 'string' } },
    prompts: { type: 'array', items: { type: 'string' } },
    labels: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'object' }] } },
  },
} as const;

/** The terms `extra_logs` carries, one list each. */
export const EXTRA_LOG_FIELDS = ['r_parallel', 'r_finish', 'r_perf', 'lambda1', 'lambda2'] as const;

/**
 * Labels labelled between two yields to the event loop: about a millisecond of work on a typical
 * record, so a 16 MiB body of labels never blocks `/healthz` for more than a slice.
 */
export const GET_REWARD_SLICE = 256;

/** Let the event loop serve what is waiting (I/O callbacks included) before going on. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Register `POST /get_reward`. */
export function getRewardRoute(app: FastifyInstance, service: ParlService): void {
  app.post<{ Querystring: RewardQuery; Body: GetRewardBody }>('/get_reward', { schema: { querystring: REWARD_QUERY_SCHEMA, body: BODY_SCHEMA } }, async (request) => {
    const config = resolveRewardConfig(rewardConfigOfQuery(request.query));
    const { labels, query } = request.body;
    if (query !== undefined && query.length !== labels.length) {
      throw new ParlInputError('labels', `${labels.length} labels`, `one label per query (${query.length} queries)`);
    }
    const fresh: Readonly<Record<string, unknown>>[] = [];
    const labelled: Readonly<Record<string, unknown>>[] = [];
    for (let i = 0; i < labels.length; i++) {
      // Labels are labelled in slices, yielding to the event loop between them, so one large body
      // never holds health checks, metrics or other requests for more than a slice's work.
      if (i > 0 && i % GET_REWARD_SLICE === 0) await yieldToEventLoop();
      const label = labels[i];
      const location = `labels[${i}]`;
      let record: unknown = label;
      if (typeof label === 'string') {
        const text = label.trim();
        if (text.startsWith('{')) {
          try {
            record = JSON.parse(text) as unknown;
          } catch (err) {
            throw new ParlInputError('label', text.length > 80 ? `${text.slice(0, 80)}…` : text, `an episode id or a spec §5 record as JSON (${err instanceof Error ? err.message : String(err)})`, location);
          }
        } else {
          const episode = service.store.get(text);
          if (episode === undefined) throw new ParlInputError('label', text, 'the id of a known episode (unknown id, or its trace has not finished)', location);
          labelled.push(labelReward(episode.labelled ?? episode.record, config, location) as unknown as Readonly<Record<string, unknown>>);
          continue;
        }
      }
      const out = labelReward(record, config, location) as unknown as Readonly<Record<string, unknown>>;
      fresh.push(out);
      labelled.push(out);
    }
    service.metrics.recordsLabelled.inc({ endpoint: 'get_reward' }, labelled.length);
    await service.acceptLabelled(fresh, 'get_reward');
    const rewards = labelled.map((r) => r['total_reward'] as number);
    const extra_logs = Object.fromEntries(EXTRA_LOG_FIELDS.map((f) => [f, labelled.map((r) => r[f] as number)]));
    return { rewards, scores: rewards, extra_logs };
  });
}
