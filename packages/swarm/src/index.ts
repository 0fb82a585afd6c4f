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
export { EPISODE_DEFAULTS, type EpisodeOptions, type EpisodeSettings } from './runtime/config.js';
export { TOOLS_FOR, type ToolsFor } from './tools/tools-for.js';
export type { ChatMessage } from './runtime/transcript.js';
export { SWARM_TRACER_NAME, type OpenSpan } from './telemetry/swarm-telemetry.js';
export { ScriptedLookupModel, scriptedLookupModel } from './runtime/scripted-model.js';
export { SCRIPTED_WORKER_PROMPT, ScriptedOrchestratorModel, scriptedOrchestrator } from './runtime/scripted-orchestrator.js';
export { isScriptedName, SCRIPTED_LOOKUP_NAME, SCRIPTED_ORCHESTRATOR_NAMES, SCRIPTED_POLICIES, type ScriptedPolicy } from './runtime/scripted-names.js';
export { ORCHESTRATOR_SYSTEM_PROMPT, SINGLE_AGENT_SYSTEM_PROMPT } from './runtime/prompts.js';
export { ORCHESTRATOR_TOOLS, type OrchestratorToolName } from './runtime/orchestrator-tools.js';
export type { EpisodeResult, StopReason, SwarmRecord } from './runtime/swarm-record.js';
export { runEpisode } from './runtime/episode.js';
export type { SubagentTranscript } from './runtime/swarm-record.js';
export { assembleTrajectory, TokenTrajectoryError, type CallTokens, type TokenTrajectory } from './runtime/token-trajectory.js';
export type { ToolSpec } from './tools/tool-spec.js';
export type { CheckedInput, SwarmTool, ToolCallContext } from './tools/swarm-tool.js';
export type { CallLimiter, ToolProvider } from './tools/tool-provider.js';
export type { Lease } from './tools/semaphore.js';
export { ToolCallError } from './tools/tool-call-error.js';
export { DEFAULT_TOOL_TIMEOUT_MS } from './tools/tool-executor.js';
export { corpusProvider } from './tools/corpus-provider.js';
export { DEFAULT_TOOL_CONCURRENCY, loadToolsModule } from './tools/module-provider.js';
export { connectMcpServer, type McpConnectOptions } from './tools/mcp-provider.js';
export { connectMcpClient, type McpConnection, type McpConnectionOptions, type McpCredentials } from './tools/mcp-connection.js';
export type { Environment } from './tools/mcp-credentials.js';
export { openRunTools, runToolsOptionsOf, type RunTools, type RunToolsOptions } from './tools/run-tools.js';
export { SUITE_NAMES, type SuiteName, type SwarmTask, type TaskTool } from './tasks/task.js';
export { generateSuite, SUITE_DEFAULTS, type SuiteOptions } from './tasks/suites.js';
export { SUITES } from './tasks/suites/suite-registry.js';
export type { SuiteEntry, SuiteShape } from './tasks/suites/suite-entry.js';
export { GENERATED_SUITE_DEFAULTS, MAX_ATTRIBUTES, SUITE_SETTINGS, type SuiteSetting, type SuiteSettingName } from './tasks/suites/suite-settings.js';
export { readTaskFile, TASKS_FILE_FLAG } from './tasks/task-file.js';
export { checkTaskRow, defaultScorer, TASK_ROW_FIELDS, type TaskRow } from './tasks/task-row.js';
export { fileTasks, withScorer } from './tasks/scored-tasks.js';
export { acceptedTexts, isAnswerTable, tableMarkdown, type AcceptedAnswer, type AnswerTable, type ColumnMetric } from './scoring/accepted-answer.js';
export type { Score, ScoredTask, Scorer } from './scoring/score.js';
export { SwarmScoreError } from './scoring/score-error.js';
export { makeScorer, makeScorers, SCORERS, type AnswerNeed, type ScorerContext, type ScorerEntry } from './scoring/scorer-registry.js';
export { parseScorerSpec, SCORER_KINDS, SCORER_SYNTAX, type ScorerKind, type ScorerSpec } from './scoring/scorer-spec.js';
export { scoreAnswer, type ScorableTask, type ScoreValue } from './scoring/task-score.js';
export { normaliseAnswer } from './scoring/normalise.js';
export { scoreTable, type PrecisionRecall } from './scoring/table-scorer.js';
export { judgePrompt, readVerdict, type JudgeVerdict } from './scoring/judge-prompt.js';
export type { JudgeClient, JudgeReply } from './scoring/judge-client.js';
export { judgeEndpoint, judgeOnModel, JUDGE_API_KEY_VARIABLE } from './jobs/judge-endpoint.js';
export { loadTasks, type TaskSourceHooks, type TaskSourceOptions } from './jobs/task-source.js';
export { corpusTools, documentText, SEARCH_LIMIT, type CorpusDocument } from './tasks/corpus.js';
export { runRollouts, type RolloutLine, type RolloutOptions, type RolloutSettings } from './rollouts/run-rollouts.js';
export type { RewardPostPolicy } from './rollouts/reward-report.js';
export type { SeededRandom } from './tasks/seeded-random.js';
export { ROLLOUT_OPTIONS_FIELD, type RunOptionTexts, type SampleLine } from './rollouts/rollout-file.js';
export type { RolloutSummary } from './rollouts/rollout-summary.js';
export { RolloutsInterruptedError } from './rollouts/interrupted.js';
export { isEpisodeError, SwarmEpisodesFailedError, type EpisodeFailure } from './rollouts/episode-failure.js';
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
export { SUBAGENT_KINDS, SWARM_EVAL_OPTIONS, SWARM_RUN_OPTIONS, type SubagentKind, type SwarmEvalOptions, type SwarmRunOptions, type SwarmToolOptions } from './options.js';
export { API_KEY_VARIABLES, endpointModel, namedModel, SUBAGENT_API_KEY_VARIABLE } from './jobs/endpoint-models.js';
export { endpointTrusted, parseEndpointPrefix, UntrustedEndpointError } from './jobs/endpoint-trust.js';
export { checkUrlTemplate, expandUrl, isUrlTemplate, URL_PLACEHOLDERS, type RolloutRef, type UrlPlaceholder } from './rollouts/url-template.js';
export { openSpanCapture, openSpansFile, type OpenSpansFileOptions, type SpanCapture, type SpansFile } from './jobs/spans-file.js';
export { swarmRun, type SwarmRunHooks } from './jobs/run-swarm.js';
export { swarmEval, type ModeSummary, type SwarmEvalHooks, type SwarmEvaluation } from './jobs/eval-swarm.js';
export type { SwarmEvent, SwarmEventListener } from './runtime/swarm-events.js';
export { SwarmAgent, type SwarmAgentMcpSettings, type SwarmAgentSettings, type SwarmReward, type SwarmRunResult } from './agent/swarm-agent.js';
// Token in (spec §10.5): a model folder's tokenizer and chat template, the parsers, the completions endpoint.
export { loadTokenInModel, type TokenInModel, type TokenInSource } from './tokens/token-in-model.js';
export type { ModelFolder } from './tokens/model-folder.js';
export type { TextTokenizer } from './tokens/text-tokenizer.js';
export type { ChatTemplate } from './tokens/chat-template.js';
export type { TemplateMessage, TemplateTool, TemplateToolCall } from './tokens/template-messages.js';
export type { ParsedToolCall, ParsedToolCalls, ToolCallParser } from './tokens/parsers/tool-call-parser.js';
export type { ReasoningParser, SplitReasoning } from './tokens/parsers/reasoning-parser.js';
export { REASONING_PARSER_NAMES, TOOL_CALL_PARSER_NAMES, type ReasoningParserName, type ToolCallParserName } from './tokens/parsers/parser-names.js';
export { DEFAULT_TOKEN_IN_MAX_TOKENS, type TokenInSettings } from './runtime/token-in-caller.js';
export type { CompletionsEndpoint } from './runtime/completions-call.js';
