/**
 * `@parl/swarm`: the Agent Swarm of the Kimi K2.5 report run on real language models through the
 * Vercel AI SDK (spec §10) — the orchestrator's `create_subagent` / `assign_task` tools, frozen
 * sub-agents run concurrently, the critical-step budget held live, spec §5 records built as the
 * episode runs, OpenTelemetry GenAI spans, offline task suites and GRPO rollouts.
 *
 * @packageDocumentation
 */
export { LIMIT_PRESETS, LIMIT_PRESET_NAMES, type LimitPreset, type SwarmLimits } from './runtime/limits.js';
export { SwarmProviderError } from './runtime/errors.js';
export { DEFAULT_RETRY, type RetryPolicy } from './runtime/model-call.js';
export { EPISODE_DEFAULTS, TOOLS_FOR, type EpisodeOptions, type EpisodeSettings, type ToolsFor } from './runtime/config.js';
export type { ChatMessage } from './runtime/transcript.js';
export { SWARM_TRACER_NAME } from './telemetry/swarm-telemetry.js';
export { ScriptedLookupModel, scriptedLookupModel } from './runtime/scripted-model.js';
export { ORCHESTRATOR_SYSTEM_PROMPT, SINGLE_AGENT_SYSTEM_PROMPT } from './runtime/prompts.js';
export { ORCHESTRATOR_TOOLS, type OrchestratorToolName } from './runtime/orchestrator-tools.js';
export type { EpisodeResult, StopReason, SwarmRecord } from './runtime/swarm-record.js';
export { runEpisode } from './runtime/episode.js';
export type { ToolSpec } from './tools/tool-spec.js';
export type { CheckedInput, SwarmTool, ToolCallContext } from './tools/swarm-tool.js';
export type { CallLimiter, ToolProvider } from './tools/tool-provider.js';
export type { Lease } from './tools/semaphore.js';
export { ToolCallError } from './tools/tool-call-error.js';
export { DEFAULT_TOOL_TIMEOUT_MS } from './tools/tool-executor.js';
export { corpusProvider } from './tools/corpus-provider.js';
export { SUITE_NAMES, type SuiteName, type SwarmTask, type TaskTool } from './tasks/task.js';
export { generateSuite, SUITE_DEFAULTS, type SuiteOptions } from './tasks/suites.js';
export { answerItems, itemF1, type AnswerItem } from './tasks/answer-lines.js';
export { corpusTools, documentText, SEARCH_LIMIT, type CorpusDocument } from './tasks/corpus.js';
export { runRollouts, type RolloutLine, type RolloutOptions } from './rollouts/run-rollouts.js';
export type { SampleLine } from './rollouts/rollout-file.js';
export {
  MAX_ROLLOUT_RESULT_BYTES,
  ROLLOUT_JOB_NAME,
  rolloutJobHandler,
  runRolloutJob,
  type RolloutJob,
  type RolloutJobHandler,
  type RolloutJobHooks,
  type RolloutJobResult,
} from './jobs/rollout-job.js';
export { RolloutJobError, type RolloutQueueEvent } from './jobs/queue-rollouts.js';
export { SUBAGENT_KINDS, SWARM_EVAL_OPTIONS, SWARM_RUN_OPTIONS, type SubagentKind, type SwarmEvalOptions, type SwarmRunOptions } from './options.js';
export { API_KEY_VARIABLES, endpointModel } from './jobs/endpoint-models.js';
export { openSpanCapture, openSpansFile, type SpanCapture, type SpansFile } from './jobs/spans-file.js';
export { swarmRun, type SwarmRunHooks } from './jobs/run-swarm.js';
export { swarmEval, type ModeSummary, type SwarmEvalHooks, type SwarmEvaluation } from './jobs/eval-swarm.js';
