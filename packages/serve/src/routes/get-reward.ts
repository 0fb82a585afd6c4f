/**
 * `POST /get_reward`: OpenRLHF's remote reward model protocol (`--remote_rm_url`). The body is
 * `{query, prompts, labels}`; each label is an episode id (trace id, rollout id or record id) or
 * a spec §5 record (as JSON text or an object). The answer is `{rewards, scores, extra_logs}`,
 * with `rewards` and `scores` the total rewards and `extra_logs` the terms.
 *
 * The body is read and its records labelled by `readGetRewardBody` (labelling/get-reward-labels.ts):
 * on a labelling thread for a body of {@link GET_REWARD_THREAD_BYTES} or more, on the event loop
 * for a smaller one (or with `labelThreads: 0`). The labels that are episode ids are labelled
 * here, where the episodes are, in slices; the answer is written in slices too.
 *
 * @module
 */
import { labelReward, ParlInputError, resolveRewardConfig, type ResolvedRewardConfig, type RewardConfig } from '@parl/core';
import { sendableRewardConfig } from '@parl/io';
import type { FastifyInstance } from 'fastify';
import { httpError } from '../http-error.js';
import { EXTRA_LOG_FIELDS, LABEL_NUMBERS, readGetRewardBody, writeLabelNumbers, type GetRewardOutcome, type GetRewardTask } from '../labelling/get-reward-labels.js';
import { REWARD_QUERY_PARAMS, rewardConfigOfQuery, type RewardQuery } from '../reward-query.js';
import { isProtobuf } from '../body/content-type.js';
import type { ParlService } from '../service.js';

export { EXTRA_LOG_FIELDS } from '../labelling/get-reward-labels.js';

/**
 * Labels that are episode ids labelled between two yields to the event loop (about a millisecond
 * of work on a typical record), and numbers of the answer written between two.
 */
export const GET_REWARD_SLICE = 256;

/**
 * Bodies this large or larger are read and labelled on a labelling thread: parsing and labelling
 * a smaller one takes about a millisecond on the event loop, less than a thread's round trip.
 */
export const GET_REWARD_THREAD_BYTES = 64 * 1024;

/** Numbers of the answer written between two yields to the event loop. */
const ANSWER_SLICE = 16 * 1024;

/** Let the event loop serve what is waiting (I/O callbacks included) before going on. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The query's reward config, or the message of its first error: the querystring schema's (a
 * parameter given twice) as Fastify worded it, then the options' own.
 */
function configOfQuery(query: RewardQuery): { readonly resolved: ResolvedRewardConfig; readonly sendable: RewardConfig } | Error {
  for (const name of REWARD_QUERY_PARAMS) {
    const value: unknown = query[name];
    if (value !== undefined && typeof value !== 'string') return httpError(400, `querystring/${name} must be string`);
  }
  try {
    const resolved = resolveRewardConfig(rewardConfigOfQuery(query));
    return { resolved, sendable: sendableRewardConfig(resolved) };
  } catch (err) {
    if (err instanceof ParlInputError) return err;
    throw err;
  }
}

/** `[n,n,…]` of `numbers[from + k·LABEL_NUMBERS]` as `JSON.stringify` writes them, the event loop served between slices. */
async function numberList(numbers: Float64Array, field: number, count: number): Promise<string> {
  const parts: string[] = [];
  for (let from = 0; from < count; from += ANSWER_SLICE) {
    if (from > 0) await yieldToEventLoop();
    const texts: string[] = [];
    for (let i = from; i < Math.min(count, from + ANSWER_SLICE); i++) {
      const v = numbers[i * LABEL_NUMBERS + field] as number;
      texts.push(Number.isFinite(v) ? String(v) : 'null');
    }
    parts.push(texts.join(','));
  }
  return `[${parts.join(',')}]`;
}

/** The answer's JSON, as `JSON.stringify({rewards, scores, extra_logs})` wrote it. */
async function answerJson(numbers: Float64Array, count: number): Promise<string> {
  const rewards = await numberList(numbers, 0, count);
  const extras: string[] = [];
  for (const [f, field] of EXTRA_LOG_FIELDS.entries()) extras.push(`"${field}":${await numberList(numbers, f + 1, count)}`);
  return `{"rewards":${rewards},"scores":${rewards},"extra_logs":{${extras.join(',')}}}`;
}

/** Register `POST /get_reward`. */
export function getRewardRoute(app: FastifyInstance, service: ParlService): void {
  app.post<{ Querystring: RewardQuery; Body: Buffer | undefined }>('/get_reward', { config: { rawBody: true } }, async (request, reply) => {
    const config = configOfQuery(request.query);
    const protobuf = isProtobuf(request.headers['content-type']);
    const call = service.labeller.call;
    let out: GetRewardOutcome;
    if (call !== undefined && request.body !== undefined && request.body.byteLength >= GET_REWARD_THREAD_BYTES) {
      // The body's bytes are moved to the thread: they are not used here afterwards.
      const body = ownBytes(request.body);
      const task: GetRewardTask = { body, protobuf, config: config instanceof Error ? undefined : config.sendable };
      out = await call<GetRewardOutcome>('getRewardTask', task, [body.buffer as ArrayBuffer], body.byteLength);
    } else {
      out = readGetRewardBody({ body: request.body, protobuf, config: config instanceof Error ? undefined : config.sendable });
    }
    if ('error' in out) throw httpError(400, out.error);
    if (config instanceof Error) throw config;
    if ('checked' in out) throw new Error('a body read with a config came back unlabelled');
    const { numbers, idAt, idEnds, idText, stop } = out;
    // The labels that are episode ids, in order, up to the first bad record: labelled here.
    for (let k = 0; k < idAt.length; k++) {
      const at = idAt[k] as number;
      if (stop !== undefined && at > stop.at) break;
      if (k > 0 && k % GET_REWARD_SLICE === 0) await yieldToEventLoop();
      const id = idText.slice(k === 0 ? 0 : idEnds[k - 1], idEnds[k]);
      const location = `labels[${at}]`;
      const episode = service.store.get(id);
      if (episode === undefined) throw new ParlInputError('label', id, 'the id of a known episode (unknown id, or its trace has not finished)', location);
      writeLabelNumbers(numbers, at, labelReward(episode.labelled ?? episode.record, config.resolved, location) as unknown as Readonly<Record<string, unknown>>);
    }
    if (stop !== undefined) throw httpError(400, stop.error);
    service.metrics.recordsLabelled.inc({ endpoint: 'get_reward' }, out.count);
    if (out.writeError !== undefined) throw httpError(400, out.writeError);
    await service.acceptLabelledBody(out.fresh, 'get_reward');
    return reply.type('application/json; charset=utf-8').send(await answerJson(numbers, out.count));
  });
}

/**
 * The body's bytes in an array buffer of their own, to move to a thread: Fastify's body is one
 * (`Buffer.concat` of the chunks received, or gunzip's output) unless it came in one chunk, when
 * it may be a view into a larger buffer, copied then.
 */
function ownBytes(body: Buffer): Uint8Array {
  if (body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer) return new Uint8Array(body.buffer, 0, body.byteLength);
  return new Uint8Array(body);
}
