/**
 * `POST /v1/rewards`: spec §5 records in (a JSON array or NDJSON), the same records labelled
 * out, as `parl reward` labels them: `@parl/io`'s labelling engine (core `labelReward`, options
 * from the query string).
 *
 * @module
 */
import type { FastifyInstance } from 'fastify';
import { REWARD_QUERY_SCHEMA, rewardConfigOfQuery, type RewardQuery } from '../reward-query.js';
import type { ParlService } from '../service.js';

/** Register `POST /v1/rewards`. */
export function rewardsRoute(app: FastifyInstance, service: ParlService): void {
  app.post<{ Querystring: RewardQuery; Body: Buffer }>(
    '/v1/rewards',
    { schema: { querystring: REWARD_QUERY_SCHEMA }, config: { rawBody: true } },
    async (request, reply) => {
      // A bad query is a 400 here, before the body goes to a labelling thread; the thread gets the config.
      const config = rewardConfigOfQuery(request.query);
      const out = await service.labeller.label({ body: request.body, contentType: request.headers['content-type'], config });
      if ('error' in out) return reply.code(400).send({ error: out.error });
      service.metrics.recordsLabelled.inc({ endpoint: 'rewards' }, out.count);
      await service.acceptLabelledBody(out, 'rewards');
      return reply.type(out.format === 'ndjson' ? 'application/x-ndjson' : 'application/json').send(Buffer.from(out.answer.buffer, out.answer.byteOffset, out.answer.byteLength));
    },
  );
}
