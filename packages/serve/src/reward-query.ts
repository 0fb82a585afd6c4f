/**
 * The reward options of a request's query string, named as `parl reward`'s flags
 * (`training_step` for `--step`), turned into the core reward config exactly as
 * `parl reward` turns its flags into one.
 *
 * @module
 */
import { BUDGET_MODES, PARALLEL_SHAPES, ParlInputError, parseDecimal, parseSchedule, type BudgetMode, type ParallelShape, type RewardConfig } from '@parl/core';

/** The query parameters the reward endpoints take, each a string as sent. */
export const REWARD_QUERY_PARAMS = ['training_step', 'lambda1', 'lambda2', 'total-steps', 'max-subagents', 'parallel-shape', 'budget', 'on-budget'] as const;

/** A request's reward query: the parameters of {@link REWARD_QUERY_PARAMS}, as strings. */
export type RewardQuery = Partial<Record<(typeof REWARD_QUERY_PARAMS)[number], string>>;

/** The JSON schema of {@link RewardQuery} (Fastify validates the query with it; an unknown name is a 400). */
export const REWARD_QUERY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(REWARD_QUERY_PARAMS.map((name) => [name, { type: 'string' }])),
} as const;

function decimal(name: string, text: string, ok: (n: number) => boolean, expected: string): number {
  const n = parseDecimal(text);
  if (!ok(n)) throw new ParlInputError(`query.${name}`, text, expected);
  return n;
}

const nonNegative = (name: string, text: string): number => decimal(name, text, (n) => Number.isFinite(n) && n >= 0, 'a decimal number ≥ 0');
const positive = (name: string, text: string): number => decimal(name, text, (n) => Number.isFinite(n) && n > 0, 'a decimal number > 0');

/**
 * The core reward config a query describes: the same parsing and checks as `parl reward`'s flags
 * (`--step`, `--lambda1`, `--lambda2`, `--total-steps`, `--max-subagents`, `--parallel-shape`,
 * `--budget`, `--on-budget`), so that the numbers are the same.
 *
 * @throws {@link @parl/core!ParlInputError} naming the parameter
 *
 * @example
 * ```ts
 * rewardConfigOfQuery({ training_step: '5000', lambda1: 'linear:0.1:0:10000' });
 * ```
 */
export function rewardConfigOfQuery(query: RewardQuery): RewardConfig {
  const q = query;
  const shape = q['parallel-shape'];
  if (shape !== undefined && !(PARALLEL_SHAPES as readonly string[]).includes(shape)) {
    throw new ParlInputError('query.parallel-shape', shape, `one of ${PARALLEL_SHAPES.join(', ')}`);
  }
  const onBudget = q['on-budget'];
  if (onBudget !== undefined && !(BUDGET_MODES as readonly string[]).includes(onBudget)) {
    throw new ParlInputError('query.on-budget', onBudget, `one of ${BUDGET_MODES.join(', ')}`);
  }
  return {
    ...(q['max-subagents'] === undefined ? {} : { maxSubagents: positive('max-subagents', q['max-subagents']) }),
    ...(q.lambda1 === undefined ? {} : { lambda1: parseSchedule(q.lambda1, 'query.lambda1') }),
    ...(q.lambda2 === undefined ? {} : { lambda2: parseSchedule(q.lambda2, 'query.lambda2') }),
    ...(q['total-steps'] === undefined ? {} : { totalTrainingSteps: positive('total-steps', q['total-steps']) }),
    ...(q.training_step === undefined ? {} : { step: nonNegative('training_step', q.training_step) }),
    ...(shape === undefined ? {} : { parallelShape: shape as ParallelShape }),
    ...(q.budget === undefined ? {} : { budget: nonNegative('budget', q.budget) }),
    ...(onBudget === undefined ? {} : { onBudget: onBudget as BudgetMode }),
  };
}
