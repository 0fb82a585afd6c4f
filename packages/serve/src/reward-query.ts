/**
 * The reward options of a request's query string: the rows of core's `REWARD_OPTIONS` under their
 * query names (`training_step` for `parl reward --step`), read by the same parsers as the flags,
 * so that a query and the flags it mirrors give the same numbers.
 *
 * @module
 */
import { optionRows, REWARD_OPTIONS, resolveOptions, type RewardOptions } from '@parl/core';

/** The query parameters the reward endpoints take, in the order of `REWARD_OPTIONS`. */
export const REWARD_QUERY_PARAMS: readonly string[] = optionRows(REWARD_OPTIONS).flatMap(([, row]) => (row.query === undefined ? [] : [row.query]));

/** A request's reward query: parameter names to their texts as sent (see {@link REWARD_QUERY_PARAMS}). */
export type RewardQuery = Readonly<Record<string, string | undefined>>;

/**
 * The JSON schema Fastify checks a reward query with: each known parameter given once, as text.
 * Unknown names pass the schema on purpose: {@link rewardConfigOfQuery} answers them with a 400
 * that names the parameter and the closest known one.
 */
export const REWARD_QUERY_SCHEMA = {
  type: 'object',
  properties: Object.fromEntries(REWARD_QUERY_PARAMS.map((name) => [name, { type: 'string' }])),
} as const;

/**
 * The reward options a query describes, read as `parl reward` reads its flags (`--step`,
 * `--lambda1`, `--lambda2`, `--total-steps`, `--max-subagents`, `--parallel-shape`, `--budget`,
 * `--on-budget`), with the same defaults.
 *
 * @throws {@link @parl/core!ParlInputError} naming the parameter (`query.lambda1.steps`), or an
 *   unknown one with the closest known name (`query.lamda1 … did you mean lambda1?`)
 *
 * @example
 * ```ts
 * rewardConfigOfQuery({ training_step: '5000', lambda1: 'linear:0.1:0:10000' }).step; // 5000
 * ```
 */
export function rewardConfigOfQuery(query: Readonly<Record<string, unknown>>): RewardOptions {
  return resolveOptions(REWARD_OPTIONS, query, 'query');
}
