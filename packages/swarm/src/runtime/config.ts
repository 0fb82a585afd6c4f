/**
 * The settings of one episode.
 *
 * @module
 */
import type { Tracer } from '@opentelemetry/api';
import type { BudgetMode, RewardConfig } from '@parl/core';
import type { LanguageModel } from 'ai';
import type { SwarmLimits } from './limits.js';
import type { RetryPolicy } from './model-call.js';

/** How an episode runs. */
export interface EpisodeSettings {
  /** The orchestrator's model. */
  readonly orchestrator: LanguageModel;
  /** The sub-agents' model (frozen: never trained). Use `scriptedLookupModel()` for `scripted` sub-agents. */
  readonly subagentModel: LanguageModel;
  /** Sub-agents running at once (≥ 1). */
  readonly concurrency: number;
  /** Most sub-agent definitions (`create_subagent` calls) per episode. */
  readonly maxSubagents: number;
  /** Caps on model calls. */
  readonly limits: SwarmLimits;
  /** The critical-step budget K, if any. */
  readonly budget: number | undefined;
  /** r_perf of an episode cut by the budget: `fail` (0) or `truncate` (score what finished). */
  readonly onBudget: BudgetMode;
  /** The training step: when given, the record gets the spec §2 / §3 fields. */
  readonly trainingStep: number | undefined;
  /** Reward options for the §3 fields (λ schedules, max_subagents…). */
  readonly reward: RewardConfig;
  /** Retries of provider failures. */
  readonly retry: RetryPolicy;
  /** Run as a single agent: the task's tools only, no `create_subagent` / `assign_task` (the baseline of the latency-to-target figure). */
  readonly singleAgent: boolean;
  /**
   * Ask the orchestrator's provider for each reply's log-probabilities and token ids (OpenAI's
   * `logprobs`, vLLM's `return_token_ids`); the transcript's assistant messages carry what it
   * returns. Optional: off when absent.
   */
  readonly tokenDetails?: boolean;
  /**
   * Keep what each orchestrator call's endpoint returned — prompt token ids, completion token ids
   * and log-probabilities — so that the rollout line can carry the token trajectory of spec §10.4,
   * and keep the sub-agents' transcripts. Implies {@link EpisodeSettings.tokenDetails}. Optional:
   * off when absent.
   */
  readonly tokenTrajectories?: boolean;
  /** The tracer for the episode's spans (default: the global provider's). */
  readonly tracer: Tracer | undefined;
}
