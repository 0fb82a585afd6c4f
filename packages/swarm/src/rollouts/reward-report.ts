/**
 * `--reward-url`: each finished rollout's reward fields POSTed as JSON to the trainer (a
 * template naming `{rollout_id}`, `{task_id}` or `{sample}` is expanded for the rollout), retried,
 * with the header `Idempotency-Key: ROLLOUT_ID` (a resumed run may post a line's reward again,
 * never a different one: spec §10.6); it is posted only after the line is on disk. A failure is
 * named on the final line (`reward_post_error`) and told to the caller, and the line is written
 * all the same. The body, one JSON object:
 *
 * ```json
 * { "rollout_id": "wide-s1-0/rollout-2", "task_id": "wide-s1-0", "group_id": "wide-s1-0", "sample": 2,
 *   "reward": 0.93, "total_reward": 0.93, "r_perf": 0.9, "r_parallel": 0.06, "r_finish": 1,
 *   "lambda1": 0.1, "lambda2": 0.1, "instantiation_component": 0.006, "finish_component": 0.1,
 *   "task_component": 0.9, "training_step": 0, "critical_steps": 5, "num_subagents": 6,
 *   "budget_exhausted": false }
 * ```
 *
 * `reward` repeats `total_reward` under the name gateways take (AReaL's `/rl/set_reward`). The
 * GRPO advantage is not in it: it needs the whole group, and the line has it.
 *
 * @module
 */
import { AttemptTimedOut, RetriesFailed, withRetries, type RetryPolicy } from '../runtime/retries.js';
import { expandUrl } from './url-template.js';
import { readAtMost, textOf } from '../http/bounded-answers.js';
import type { SampleLine } from './rollout-file.js';

/** Fields of the line copied into the body, when the line has them. */
/** Bytes read of a trainer's answer to a reward (its start is shown when it refuses one). */
const REWARD_ANSWER_READ_BYTES = 64 * 1024;

const REWARD_FIELDS = [
  'total_reward', 'r_perf', 'r_parallel', 'r_finish', 'lambda1', 'lambda2', 'instantiation_component', 'finish_component', 'task_component',
  'training_step', 'critical_steps', 'num_subagents', 'budget_exhausted',
] as const;

/** How reward reports are retried (the swarm's one {@link RetryPolicy}: attempts, backoff, a timeout per attempt). */
export type RewardPostPolicy = RetryPolicy;

/** The default: 3 attempts, 0.5 s then 1 s apart, 30 s each. */
export const DEFAULT_REWARD_POST: RewardPostPolicy = { attempts: 3, baseDelayMs: 500, timeoutMs: 30_000 };

/** The body POSTed for a line. */
export function rewardBody(line: SampleLine): Record<string, unknown> {
  const body: Record<string, unknown> = { rollout_id: line['id'], task_id: line['task_id'], group_id: line.group_id, sample: line.sample, reward: line['total_reward'] };
  for (const field of REWARD_FIELDS) if (line[field] !== undefined) body[field] = line[field];
  return body;
}

/** HTTP statuses worth another attempt. */
function retryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** A trainer's answer that was not 2xx. */
class RewardRefused extends Error {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    text: string,
  ) {
    super(`HTTP ${status}${text === '' ? '' : `: ${text}`}`);
  }
}

/** Why an attempt failed, one line. */
function reasonOf(err: unknown): string {
  if (err instanceof RewardRefused || err instanceof AttemptTimedOut) return err.message;
  return `cannot reach it (${err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)})`;
}

/**
 * POST the line's reward fields to `template` expanded for it, with the swarm's one retry helper
 * (a trainer's `Retry-After` honoured).
 *
 * @returns undefined when the trainer took it (a 2xx answer), else one line naming the URL and why
 */
export async function postReward(template: string, line: SampleLine, policy: RewardPostPolicy = DEFAULT_REWARD_POST): Promise<string | undefined> {
  const url = expandUrl(template, { rollout_id: String(line['id']), task_id: String(line['task_id'] ?? line.group_id), sample: line.sample });
  const body = JSON.stringify(rewardBody(line));
  try {
    await withRetries(
      async (signal) => {
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': String(line['id']) }, body, signal });
        // Only the start of the answer is shown (200 characters), so only its start is read.
        const text = textOf((await readAtMost(res.body, REWARD_ANSWER_READ_BYTES)).bytes).replace(/\s+/g, ' ').trim().slice(0, 200);
        if (!res.ok) throw new RewardRefused(res.status, res.headers, text);
      },
      policy,
      {
        retryable: (err) => !(err instanceof RewardRefused) || retryable(err.status),
        headersOf: (err) => (err instanceof RewardRefused ? err.headers : undefined),
      },
    );
    return undefined;
  } catch (err) {
    const failed = err instanceof RetriesFailed ? err : new RetriesFailed(1, err);
    return `POST ${url} failed after ${failed.attempts} attempt${failed.attempts === 1 ? '' : 's'}: ${reasonOf(failed.lastError)}`;
  }
}
