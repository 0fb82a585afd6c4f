/**
 * `POST /v1/rewards`: spec §5 records in (a JSON array or NDJSON), the same records labelled
 * out, as `parl reward` labels them: `@parl/io`'s labelling engine (core `labelReward`, options
 * from the query string).
 *
 * @module
 */
import { resolveRewardConfig, type ResolvedRewardConfig } from '@parl/core';
import type { LabelledSlices } from '@parl/io';
import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
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
      // Held records are labelled again with it when read (the store holds them as posted).
      const resolved = resolveRewardConfig(config);
      // A body labelled in slices gets its log lines made on the event loop from each slice's
      // answer, into one reused buffer (acceptLabelledBody), so that they do not cross from the
      // thread as a second copy of the answer; a body labelled whole (io decides which) gets them
      // from the thread, which keeps that work off the event loop under a stream of small bodies.
      const out = await service.labeller.labelInSlices({ body: request.body, contentType: request.headers['content-type'], config, withoutExtraBytes: true });
      if ('error' in out) return reply.code(400).send({ error: out.error });
      service.metrics.recordsLabelled.inc({ endpoint: 'rewards' }, out.count);
      reply.type(out.format === 'ndjson' ? 'application/x-ndjson' : 'application/json');
      if (out.whole) {
        for await (const whole of out.slices()) {
          await service.acceptLabelledBody(whole, 'rewards', resolved);
          return reply.send(Buffer.from(whole.answer.buffer, whole.answer.byteOffset, whole.answer.byteLength));
        }
      }
      // A large body: its answer is sent a slice at a time, each slice logged (and held) before it
      // is sent, the next labelled while the client reads; a client that reads slowly holds the
      // body (counted in maxQueuedBodyBytes), not its answer.
      return reply.send(Readable.from(answerPieces(out, service, resolved), { objectMode: false }));
    },
  );
}

/** The answer of a body labelled in slices, as the bytes to send: each slice accepted before it is sent. */
async function* answerPieces(out: LabelledSlices, service: ParlService, config: ResolvedRewardConfig): AsyncGenerator<Buffer> {
  const json = out.format === 'json';
  if (json) yield Buffer.from('[');
  let first = true;
  for await (const slice of out.slices()) {
    await service.acceptLabelledBody(slice, 'rewards', config);
    if (slice.answer.byteLength === 0) continue;
    if (json && !first) yield Buffer.from(',');
    first = false;
    yield Buffer.from(slice.answer.buffer, slice.answer.byteOffset, slice.answer.byteLength);
  }
  if (json) yield Buffer.from(']');
}
