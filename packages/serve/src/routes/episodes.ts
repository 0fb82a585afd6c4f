/**
 * `GET /v1/episodes/{id}` (the episode's record, finding and last labelled record) and
 * `POST /v1/episodes/{id}/outcome` (its outcome in, its labelled record out). `{id}` is a trace
 * id, a rollout id or a record id.
 *
 * @module
 */
import { resolveRewardConfig } from '@parl/core';
import type { FastifyInstance } from 'fastify';
import { httpError } from '../http-error.js';
import { wantsHtml } from '../accepts-html.js';
import { episodePageHtml } from './episode-page.js';
import { REWARD_QUERY_SCHEMA, rewardConfigOfQuery, type RewardQuery } from '../reward-query.js';
import type { ParlService } from '../service.js';

const OUTCOME_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    success: { anyOf: [{ type: 'boolean' }, { type: 'number' }] },
    quality: { type: 'number' },
    r_perf: { type: 'number' },
    trajectory_features: { type: 'array', items: { type: 'number' } },
    training_step: { type: 'number' },
  },
} as const;

const PARAMS_SCHEMA = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1 } } } as const;

function unknownEpisode(id: string): Error {
  return httpError(404, `no episode ${JSON.stringify(id)} (unknown id, or its trace has not finished: a trace becomes an episode once its root span ended and the quiet period passed)`);
}

/** Register the episode routes. */
export function episodeRoutes(app: FastifyInstance, service: ParlService): void {
  app.get<{ Params: { id: string } }>('/v1/episodes/:id', { schema: { params: PARAMS_SCHEMA } }, async (request, reply) => {
    const episode = service.store.get(request.params.id);
    if (episode === undefined) throw unknownEpisode(request.params.id);
    reply.header('vary', 'accept');
    // A browser (Accept: text/html first) gets the episode drawn; API clients get the JSON.
    if (wantsHtml(request.headers.accept)) return reply.type('text/html; charset=utf-8').send(episodePageHtml(episode, service.options.clock));
    return episode;
  });

  app.post<{ Params: { id: string }; Querystring: RewardQuery; Body: Record<string, unknown> }>(
    '/v1/episodes/:id/outcome',
    { schema: { params: PARAMS_SCHEMA, querystring: REWARD_QUERY_SCHEMA, body: OUTCOME_SCHEMA } },
    async (request) => {
      const config = resolveRewardConfig(rewardConfigOfQuery(request.query));
      const labelled = await service.outcome(request.params.id, request.body, config);
      if (labelled === undefined) throw unknownEpisode(request.params.id);
      service.metrics.recordsLabelled.inc({ endpoint: 'outcome' });
      return labelled;
    },
  );
}
