/**
 * The spec §10 record of an episode, what an episode yields, and the record built from the
 * live record when the episode ends.
 *
 * @module
 */
import { labelReward, validateRecord, type EpisodeRecord, type RewardConfig } from '@parl/core';
import type { Score } from '../scoring/score.js';
import type { LiveRecord } from './live-record.js';
import type { TokenTrajectory } from './token-trajectory.js';
import type { ChatMessage } from './transcript.js';

/** One sub-agent run's transcript (frozen, not trainable: spec §10.4's `subagent_messages`). */
export interface SubagentTranscript {
  /** The sub-agent's name (`create_subagent`'s `name`). */
  readonly agent: string;
  /** Whether it finished its task. */
  readonly finished: boolean;
  /** Its conversation in the OpenAI chat format, system prompt first. */
  readonly messages: readonly ChatMessage[];
}

/**
 * Why an episode stopped: the orchestrator answered, reached its step cap, or the budget was
 * spent; `context`: its next prompt would not have fitted the model's context (a model caller
 * that knows its prompt's length, spec §10.5).
 */
export type StopReason = 'answer' | 'orchestrator_steps' | 'budget' | 'context';

/** The spec §10 record of an episode (a §5 record; with the §2 / §3 fields when a training step was given). */
export type SwarmRecord = EpisodeRecord & {
  readonly id: string;
  readonly task_id: string;
  readonly budget_exhausted: boolean;
  readonly wall_ms: number;
  readonly end_reason: StopReason;
  /** Tool calls the orchestrator made. */
  readonly orchestrator_tool_calls: number;
  /** Of those, calls the SDK rejected (arguments not JSON, an unknown tool). */
  readonly malformed_tool_calls: number;
  /** Tool calls of any agent whose result was an error (the tool's error, a bad argument, an unknown tool, the tool timeout; spec §10.3). */
  readonly tool_errors: number;
  /** How r_perf was reached (spec §10.2): `{scorer, r_perf, …details}`. */
  readonly score: Score;
  readonly [field: string]: unknown;
};

/** What an episode yields. */
export interface EpisodeResult {
  /** The record, built live. */
  readonly record: SwarmRecord;
  /** The orchestrator's transcript (OpenAI chat format). */
  readonly messages: readonly ChatMessage[];
  /** The final answer ('' when the orchestrator gave none). */
  readonly answer: string;
  /** Why the orchestrator's malformed tool calls were rejected, in order. */
  readonly malformed: readonly string[];
  /** Tool calls the executor ran in the episode, every agent's (the orchestrator's `create_subagent` / `assign_task` included). */
  readonly toolCalls: number;
  /** With `tokenTrajectories`: the orchestrator's token trajectory (spec §10.4). */
  readonly trajectory?: TokenTrajectory;
  /** With `tokenTrajectories`: each sub-agent run's transcript, in the order they ended. */
  readonly subagentMessages?: readonly SubagentTranscript[];
}

/** What the record is built from when the episode ends. */
export interface RecordInput {
  readonly id: string;
  readonly taskId: string;
  readonly live: LiveRecord;
  /** The final answer's score (its r_perf is the record's). */
  readonly score: Score;
  /** The task's metadata, copied into the record unchanged. */
  readonly metadata: Readonly<Record<string, unknown>> | undefined;
  readonly stop: StopReason;
  readonly budgetExhausted: boolean;
  readonly orchestratorToolCalls: number;
  readonly malformedToolCalls: number;
  readonly toolErrors: number;
  readonly wallMs: number;
  readonly trainingStep: number | undefined;
  readonly reward: RewardConfig;
  readonly maxSubagents: number;
}

/** The episode's record: the stages as run, their counts, and the §2 / §3 fields when a training step was given. */
export function buildRecord(input: RecordInput): SwarmRecord {
  const stages = input.live.stages();
  const counts = validateRecord({ stages });
  const base = {
    id: input.id,
    task_id: input.taskId,
    ...(input.trainingStep === undefined ? {} : { training_step: input.trainingStep }),
    stages,
    num_subagents: counts.numSubagents,
    assigned_subtasks: counts.assigned,
    completed_subtasks: counts.completed,
    r_perf: input.score.r_perf,
    score: input.score,
    ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
    budget_exhausted: input.budgetExhausted,
    end_reason: input.stop,
    orchestrator_tool_calls: input.orchestratorToolCalls,
    malformed_tool_calls: input.malformedToolCalls,
    tool_errors: input.toolErrors,
    wall_ms: Math.round(input.wallMs * 1000) / 1000,
  };
  if (input.trainingStep === undefined) return base;
  return labelReward(base, { ...input.reward, maxSubagents: input.maxSubagents }) as unknown as SwarmRecord;
}
