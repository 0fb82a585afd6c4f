/**
 * `POST /v1/rewards`: spec §5 records in (a JSON array or NDJSON), the same records labelled
 * out, as `parl reward` labels them (core `labelReward`, options from the query string).
 *
 * @module
 */
import { labelReward, resolveRewardConfig } from '@parl/core';
import type { FastifyInstance } from 'fastify';
import { parseRecordsBody, recordsText } from '../body/records-body.js';
import { REWARD_QUERY_SCHEMA, rewardConfigOfQuery, type RewardQuery } from '../reward-query.js';
import type { ParlService } from '../service.js';

/** Register `POST /v1/rewards`. */
export function rewardsRoute(app: FastifyInstance, service: ParlService): void {
  app.post<{ Querystring: RewardQuery; Body: string }>(
    '/v1/rewards',
    { schema: { querystring: REWARD_QUERY_SCHEMA }, config: { rawBody: true } },
    async (request, reply) => {
      const config = resolveRewardConfig(rewardConfigOfQuery(request.query));
      const { records, format } = parseRecordsBody(request.body, request.headers['content-type']);
      const labelled = records.map(({ value, location }) => labelReward(value, config, location) as unknown as Readonly<Record<string, unknown>>);
      service.metrics.recordsLabelled.inc({ endpoint: 'rewards' }, labelled.length);
      await service.acceptLabelled(labelled, 'rewards');
      return reply.type(format === 'ndjson' ? 'application/x-ndjson' : 'application/json').send(recordsText(labelled, format));
    },
  );
}
