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
export { DEFAULT_RETRY, type RetryPolicy, type ToolSpec } from './runtime/model-call.js';
export type { EpisodeSettings } from './runtime/config.js';
export type { ChatMessage } from './runtime/transcript.js';
export { SWARM_TRACER_NAME } from './runtime/telemetry.js';
export { ScriptedLookupModel, scriptedLookupModel } from './runtime/scripted-model.js';
export { SCRIPTED_WORKER_PROMPT, ScriptedOrchestratorModel, scriptedOrchestrator } from './runtime/scripted-orchestrator.js';
export { isScriptedName, SCRIPTED_LOOKUP_NAME, SCRIPTED_ORCHESTRATOR_NAMES, SCRIPTED_POLICIES, type ScriptedPolicy } from './runtime/scripted-names.js';
export {
  ORCHESTRATOR_SYSTEM_PROMPT,
  ORCHESTRATOR_TOOLS,
  runEpisode,
  SINGLE_AGENT_SYSTEM_PROMPT,
  type EpisodeResult,
  type StopReason,
  type SwarmRecord,
} from './runtime/episode.js';
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
} from './rollouts/rollout-job.js';
export { RolloutJobError, type RolloutQueueEvent } from './rollouts/queue-rollouts.js';
export { SUBAGENT_KINDS, SWARM_EVAL_OPTIONS, SWARM_RUN_OPTIONS, type SubagentKind, type SwarmEvalOptions, type SwarmRunOptions } from './options.js';
export { API_KEY_VARIABLES, endpointModel, namedModel, SUBAGENT_API_KEY_VARIABLE } from './jobs/endpoint-models.js';
export { checkUrlTemplate, expandUrl, isUrlTemplate, URL_PLACEHOLDERS, type RolloutRef, type UrlPlaceholder } from './jobs/url-template.js';
export { openSpanCapture, openSpansFile, type SpanCapture, type SpansFile } from './jobs/spans-file.js';
export { swarmRun, type SwarmRunHooks } from './jobs/run-swarm.js';
export { swarmEval, type ModeSummary, type SwarmEvalHooks, type SwarmEvaluation } from './jobs/eval-swarm.js';
