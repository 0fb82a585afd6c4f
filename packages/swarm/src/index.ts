/**
 * `@parl/swarm`: the Agent Swarm of the Kimi K2.5 report run on real language models through the
 * Vercel AI SDK (spec §10) — the orchestrator's `create_subagent` / `assign_task` tools, frozen
 * sub-agents run concurrently, the critical-step budget held live, spec §5 records built as the
 * episode runs, OpenTelemetry GenAI spans, offline task suites and GRPO rollouts.
 *
 * @packageDocumentation
 */
// The agent and one episode
export type { McpSettings } from './tools/run-tool-options.js';
export { SwarmAgent, type SwarmAgentResult, type SwarmAgentSettings, type SwarmReward } from './agent/swarm-agent.js';
export { runEpisode } from './runtime/episode.js';
export { EPISODE_DEFAULTS, type EpisodeOptions, type EpisodeSettings } from './runtime/config.js';
export type { EpisodeResult, StopReason, SubagentTranscript, SwarmRecord } from './runtime/swarm-record.js';
export type { SwarmEvent, SwarmEventListener } from './runtime/swarm-events.js';
export type { ChatMessage } from './runtime/transcript.js';
export { LIMIT_PRESETS, type LimitPreset, type SwarmLimits } from './runtime/limits.js';
export { DEFAULT_RETRY, type RetryPolicy } from './runtime/model-call.js';
export { TokenTrajectoryError, type TokenTrajectory } from './runtime/token-trajectory.js';
export { SwarmProviderError } from './runtime/errors.js';
// Token in (spec §10.5)
export { loadTokenInModel, type TokenInModel, type TokenInSource } from './tokens/token-in-model.js';
export type { TokenInSettings } from './runtime/token-in-caller.js';
// Models
export { scriptedLookupModel } from './runtime/scripted-model.js';
export { scriptedOrchestrator } from './runtime/scripted-orchestrator.js';
export { SCRIPTED_POLICIES, type ScriptedPolicy } from './runtime/scripted-names.js';
export { API_KEY_VARIABLES, endpointModel } from './jobs/endpoint-models.js';
export { parseEndpointPrefix, UntrustedEndpointError } from './jobs/endpoint-trust.js';
// Tools
export type { ToolProvider } from './tools/tool-provider.js';
export type { CheckedInput, SwarmTool, ToolCallContext } from './tools/swarm-tool.js';
export type { ToolSpec } from './tools/tool-spec.js';
export { TOOLS_FOR, type ToolsFor } from './tools/tools-for.js';
export { ToolCallError } from './tools/tool-call-error.js';
export { loadToolsModule } from './tools/module-provider.js';
export { connectMcpClient, type McpConnection, type McpConnectionOptions } from './tools/mcp-connection.js';
export { openRunTools, type RunTools, type RunToolsOptions } from './tools/run-tools.js';
// Tasks and scores
export { SUITE_NAMES, type SuiteName, type SwarmTask, type TaskTool } from './tasks/task.js';
export { generateSuite, type SuiteOptions } from './tasks/suites.js';
export type { SeededRandom } from './tasks/seeded-random.js';
export type { Score, ScoredTask, Scorer } from './scoring/score.js';
export type { ScoreValue } from './scoring/task-score.js';
export { SwarmScoreError } from './scoring/score-error.js';
// Runs, evaluations and their files
export { SWARM_EVAL_OPTIONS, SWARM_RUN_OPTIONS, type SwarmEvalOptions, type SwarmRunOptions, type SwarmToolOptions } from './options.js';
export { swarmRun, type SwarmRunHooks } from './jobs/run-swarm.js';
export { swarmEval, type ModeSummary, type PreviousEvaluation, type SwarmEvalHooks, type SwarmEvaluation } from './jobs/eval-swarm.js';
export type { RolloutLine, RolloutSettings } from './rollouts/run-rollouts.js';
export type { SampleLine } from './rollouts/rollout-file.js';
export type { RolloutSummary } from './rollouts/rollout-summary.js';
export { RolloutsInterruptedError } from './rollouts/interrupted.js';
export { SwarmEpisodesFailedError, type EpisodeFailure, type EpisodesJob } from './rollouts/episode-failure.js';
export { openSpanCapture, type SpanCapture } from './jobs/spans-file.js';
export { ROLLOUT_JOB_NAME, rolloutJobHandler, type RolloutJobHandler, type RolloutJobHooks, type RolloutJobResult } from './jobs/rollout-job.js';
export { RolloutJobError, type RolloutQueueEvent } from './jobs/queue-rollouts.js';
