/**
 * The options of `parl swarm run` and `parl swarm eval`, declared once (core's option tables; the
 * reward rows are core's `REWARD_OPTIONS`, the queue rows `@parl/io`'s):
 * the CLI's flags, their parsing, help and the docs' tables come from these rows. A tiny module
 * (`@parl/swarm/options`, with core and io only) so that help never loads the AI SDK.
 *
 * @module
 */
import {
  BUDGET_MODES,
  choiceOption,
  defineOptionTable,
  integerOptionIn,
  nonEmptyTextOption,
  nonNegativeDecimalOption,
  ParlInputError,
  positiveDecimalOption,
  positiveIntegerOption,
  REWARD_OPTIONS,
  switchOption,
  type BudgetMode,
  type OptionParser,
  type ResolvedOptions,
} from '@parl/core';
import { QUEUE_NAME_ROW, QUEUE_URL_ROW } from '@parl/io';
import { LIMIT_PRESET_NAMES, LIMIT_PRESETS, type LimitPreset } from './runtime/limits.js';
import { DEFAULT_RETRY } from './runtime/retry-policy.js';
import { parseScorerSpec, SCORER_SYNTAX } from './scoring/scorer-spec.js';
import { GENERATED_SUITE_DEFAULTS, MAX_ATTRIBUTES, SUITE_SETTINGS } from './tasks/suites/suite-settings.js';
import { checkUrlTemplate } from './rollouts/url-template.js';
import { SCRIPTED_LOOKUP_NAME, SCRIPTED_ORCHESTRATOR_NAMES, SCRIPTED_PREFIX } from './runtime/scripted-names.js';
import { SUITE_NAMES, type SuiteName } from './tasks/task.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from './tools/tool-executor.js';
import { DEFAULT_TOOL_CONCURRENCY } from './tools/tool-provider.js';
import { TOOLS_FOR, type ToolsFor } from './tools/tools-for.js';
import { RUN_TOOL_OPTIONS, type McpSettings } from './tools/run-tool-options.js';
import { REASONING_PARSER_NAMES, TOOL_CALL_PARSER_NAMES } from './tokens/parsers/parser-names.js';

/** The rows of a run's own tools (`--tools`, `--mcp` and its credentials), shared with `parl worker` and `SwarmAgent`. */
export { MCP_OPTIONS, RUN_TOOL_OPTIONS, type McpSettings, type RunToolSettings } from './tools/run-tool-options.js';

/** The rows of a worker's swarm rollouts (`--allow-endpoint`, `--model-folder`), which `parl worker` adds when swarm is installed. */
export { WORKER_ROLLOUT_OPTIONS, type WorkerRolloutSettings } from './jobs/worker-rollout-options.js';

/** Who runs the sub-agents: a language model with the task's tools, or the frozen look-up program. */
export const SUBAGENT_KINDS = ['llm', 'scripted'] as const;

/** A sub-agent kind. */
export type SubagentKind = (typeof SUBAGENT_KINDS)[number];

/** An http(s) URL (no template: the judge's endpoint is one for the whole run). */
const urlOption: OptionParser<string> = (text, field) => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ParlInputError(field, text, 'an http(s) URL such as http://127.0.0.1:8000/v1');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ParlInputError(field, text, 'an http(s) URL such as http://127.0.0.1:8000/v1');
  return text.replace(/\/+$/, '');
};

/** An http(s) URL, optionally a template naming {rollout_id}, {task_id} or {sample}. */
const urlTemplateOption: OptionParser<string> = (text, field) => checkUrlTemplate(text, field);

/** A model name: a scripted one among `scripted` (checked here), or any name the endpoint serves. */
function modelNameOption(scripted: readonly string[]): OptionParser<string> {
  return (text, field) => {
    const name = nonEmptyTextOption(text, field);
    if (name.startsWith(SCRIPTED_PREFIX) && !scripted.includes(name)) throw new ParlInputError(field, text, `one of ${scripted.join(', ')}, or a model name on the endpoint`);
    return name;
  };
}

/** A scorer name of spec §10.2 (checked here; a module is loaded when the run starts). */
const scorerOption: OptionParser<string> = (text, field) => parseScorerSpec(text, field).name;

/** The number of attributes of a wide task: 1 to the corpus's six. */
const attributesOption: OptionParser<number> = (text, field) => {
  const n = positiveIntegerOption(text, field);
  if (n > MAX_ATTRIBUTES) throw new ParlInputError(field, text, `an integer from 1 to ${MAX_ATTRIBUTES} (the corpus's attributes)`);
  return n;
};

/** A comma-separated list of r_perf targets in [0, 1]. */
const targetsOption: OptionParser<number[]> = (text, field) =>
  text.split(',').map((part, i) => {
    const n = Number(part.trim());
    if (part.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
      throw new ParlInputError(field, text, `a comma-separated list of numbers in [0, 1], e.g. 0.3,0.5,0.8 (item ${i + 1} is ${JSON.stringify(part)})`);
    }
    return n;
  });

/**
 * A critical-step budget: a number > 0. A budget of 0 would stop every episode before its first
 * model call (empty episodes, each scored as if the model had failed), so it is refused.
 */
const budgetOption: OptionParser<number> = (text, field) => {
  const n = nonNegativeDecimalOption(text, field);
  if (n === 0) throw new ParlInputError(field, text, 'a critical-step budget > 0 (0 stops every episode before its first model call); leave --budget out for no budget');
  return n;
};

const common = {
  baseUrl: {
    flag: 'base-url',
    arg: 'URL',
    parse: urlTemplateOption,
    help: 'the orchestrator\'s OpenAI-compatible endpoint (vLLM, SGLang, Ollama, LM Studio, llama.cpp server; not needed for scripted models); a template naming {rollout_id}, {task_id} or {sample} is expanded per rollout (a trainer\'s gateway per rollout); the API key is read from PARL_API_KEY or OPENAI_API_KEY',
  },
  subagentBaseUrl: {
    flag: 'subagent-base-url',
    arg: 'URL',
    parse: urlTemplateOption,
    defaultText: 'the --base-url',
    help: 'the frozen sub-agents\' own endpoint (a template as --base-url); its API key is read from PARL_SUBAGENT_API_KEY only',
  },
  model: { flag: 'model', arg: 'NAME', parse: modelNameOption(SCRIPTED_ORCHESTRATOR_NAMES), required: true, help: `the orchestrator's model on the endpoint, or a scripted orchestrator that needs none: ${SCRIPTED_ORCHESTRATOR_NAMES.join(', ')}` },
  subagentModel: {
    flag: 'subagent-model',
    arg: 'NAME',
    parse: modelNameOption([SCRIPTED_LOOKUP_NAME]),
    defaultText: `the --model (${SCRIPTED_LOOKUP_NAME} with a scripted --model)`,
    help: `the sub-agents' model (frozen), on --subagent-base-url, or ${SCRIPTED_LOOKUP_NAME}`,
  },
  subagents: { flag: 'subagents', arg: 'KIND', choices: SUBAGENT_KINDS, parse: choiceOption(SUBAGENT_KINDS), default: 'llm', help: 'sub-agents as language models with the task\'s tools, or the frozen look-up program (no model calls)' },
  suite: { flag: 'suite', arg: 'SUITE', choices: SUITE_NAMES, parse: choiceOption(SUITE_NAMES), defaultText: GENERATED_SUITE_DEFAULTS.suite, help: 'the task suite, generated offline from --seed (not with --tasks-file)' },
  tasks: { flag: 'tasks', arg: 'N', parse: positiveIntegerOption, defaultText: `${GENERATED_SUITE_DEFAULTS.tasks}, or every row of --tasks-file`, help: 'tasks to generate, or the first N rows of --tasks-file' },
  seed: { flag: 'seed', arg: 'S', parse: integerOptionIn(0), defaultText: String(GENERATED_SUITE_DEFAULTS.seed), help: 'seed of the suite (not with --tasks-file)' },
  concurrency: { flag: 'concurrency', arg: 'C', parse: positiveIntegerOption, default: 8, help: 'sub-agents running at once over the whole tree; the others wait for a slot and start as earlier ones end (their wait counts in critical steps: wait_steps)' },
  entities: { flag: 'entities', arg: 'N', parse: positiveIntegerOption, default: SUITE_SETTINGS.entities.default, help: `${SUITE_SETTINGS.entities.help} (suites ${SUITE_SETTINGS.entities.suites.join(', ')})` },
  attributes: { flag: 'attributes', arg: 'M', parse: attributesOption, default: SUITE_SETTINGS.attributes.default, help: `${SUITE_SETTINGS.attributes.help} (suites ${SUITE_SETTINGS.attributes.suites.join(', ')})` },
  hops: { flag: 'hops', arg: 'H', parse: positiveIntegerOption, default: SUITE_SETTINGS.hops.default, help: `${SUITE_SETTINGS.hops.help} (suites ${SUITE_SETTINGS.hops.suites.join(', ')})` },
  tasksFile: { flag: 'tasks-file', arg: 'FILE', parse: nonEmptyTextOption, help: 'run the tasks of FILE instead of a suite: JSONL, a JSON array, CSV, Parquet or Arrow, one task per row (id, prompt, answer, scorer?, metadata?); every row is checked before any episode' },
  scorer: { flag: 'scorer', arg: 'NAME', parse: scorerOption, defaultText: 'table for a table answer, else exact', help: `how the final answer is scored, unless a task row names its own: ${SCORER_SYNTAX}` },
  judgeBaseUrl: { flag: 'judge-base-url', arg: 'URL', parse: urlOption, defaultText: 'the --base-url', help: 'the judge scorer\'s OpenAI-compatible endpoint; its API key is read from PARL_JUDGE_API_KEY' },
  judgeModel: { flag: 'judge-model', arg: 'NAME', parse: nonEmptyTextOption, help: 'the judge scorer\'s model (needed by the judge scorer and by tables\' judge columns)' },
  limits: { flag: 'limits', arg: 'PRESET', choices: LIMIT_PRESET_NAMES, parse: choiceOption(LIMIT_PRESET_NAMES), default: 'default', help: `model-call caps of the orchestrator / each sub-agent: ${LIMIT_PRESET_NAMES.map((n) => `${n} ${LIMIT_PRESETS[n].orchestrator_steps}/${LIMIT_PRESETS[n].subagent_steps}`).join(', ')}` },
  requestTimeout: { flag: 'request-timeout', arg: 'SECONDS', parse: positiveDecimalOption, default: DEFAULT_RETRY.timeoutMs / 1000, help: `seconds one model or judge request may take before it is abandoned and retried (each of the ${DEFAULT_RETRY.attempts} attempts)` },
  scorerTimeout: { flag: 'scorer-timeout', arg: 'S', parse: positiveDecimalOption, default: 60, help: 'seconds a module: scorer may take to score one answer; past it, as when it throws, the episode is an error (no line, no reward) and a rerun runs it again' },
  ...RUN_TOOL_OPTIONS,
  toolsFor: { flag: 'tools-for', arg: 'WHO', choices: TOOLS_FOR, parse: choiceOption<ToolsFor>(TOOLS_FOR), default: 'both', help: 'who gets the task\'s tools: the sub-agents and the orchestrator (its direct fallback), the sub-agents only, or the orchestrator only' },
  toolTimeout: { flag: 'tool-timeout', arg: 'S', parse: positiveDecimalOption, default: DEFAULT_TOOL_TIMEOUT_MS / 1000, help: 'seconds a tool call may take (its wait for a place counts); a call past it returns an error to the model (counted in tool_errors)' },
  depth: { flag: 'depth', arg: 'D', parse: integerOptionIn(1, 16), default: 1, help: 'levels of agents: with D > 1 a sub-agent at depth d < D also has create_subagent / assign_task (its record entry nests, spec §5.2); max_subagents, --concurrency and the budget hold over the whole tree' },
  toolConcurrency: { flag: 'tool-concurrency', arg: 'N', parse: positiveIntegerOption, default: DEFAULT_TOOL_CONCURRENCY, help: 'tool calls running at once per --tools module or --mcp server; the others wait (a call past --tool-timeout keeps its place until the tool ends)' },
} as const;

/** `parl swarm run`'s options. */
export const SWARM_RUN_OPTIONS = defineOptionTable({
  ...common,
  groupSize: { flag: 'group-size', arg: 'G', parse: positiveIntegerOption, default: 1, help: 'samples per task (a GRPO group); the lines carry group_id, sample and advantage' },
  budget: { flag: 'budget', arg: 'K', parse: budgetOption, help: 'critical-step budget, held while each episode runs: no model call starts that could pass K' },
  onBudget: { flag: 'on-budget', arg: 'MODE', choices: BUDGET_MODES, parse: choiceOption(BUDGET_MODES), default: 'fail', help: 'r_perf of an episode the budget cut: 0 (fail) or the score of what finished (truncate)' },
  maxSubagents: REWARD_OPTIONS.maxSubagents,
  lambda1: REWARD_OPTIONS.lambda1,
  lambda2: REWARD_OPTIONS.lambda2,
  totalTrainingSteps: REWARD_OPTIONS.totalTrainingSteps,
  parallelShape: REWARD_OPTIONS.parallelShape,
  trainingStep: { flag: 'training-step', arg: 'S', parse: nonNegativeDecimalOption, default: 0, help: 'training step of the spec §3 reward fields (λ1, λ2)' },
  out: { flag: 'out', arg: 'FILE', parse: nonEmptyTextOption, help: 'write the rollout lines (JSONL) to FILE, atomically; a rerun with the same flags resumes, running only the missing task × sample' },
  restart: { flag: 'restart', parse: switchOption, needs: 'out', help: 'with --out: start over, replacing the rollout file (and its spans) of an earlier run instead of resuming it' },
  spans: { flag: 'spans', arg: 'FILE', parse: nonEmptyTextOption, help: 'write the episodes\' OpenTelemetry spans to FILE as OTLP JSON (one export request per line), readable by parl trace' },
  logprobs: { flag: 'logprobs', parse: switchOption, help: 'ask the endpoint for the orchestrator\'s log-probabilities and token ids (OpenAI logprobs, vLLM return_token_ids); its assistant messages carry them as logprobs and token_ids' },
  tokenTrajectories: {
    flag: 'token-trajectories',
    parse: switchOption,
    help: 'add the orchestrator\'s token trajectory (spec §10.4: prompt_ids, response_ids, response_mask, response_logprobs, from the ids the endpoint returned, never re-tokenised; retokenized_at where a prompt does not extend the last) and the sub-agents\' transcripts (subagent_messages) to each line',
  },
  tokenIn: {
    flag: 'token-in',
    parse: switchOption,
    needs: 'tokenizer',
    help: 'hold the orchestrator\'s conversation as token ids (spec §10.5): the first prompt is --tokenizer\'s chat template over system, user and tools, each call a completions request on token ids at --base-url (/completions, as vLLM and SGLang serve it), the next prompt the last one + the completion + the bridge (the tool results as the template renders them, tokenized alone); the token trajectory is exact by construction (implies --token-trajectories); sub-agents stay on chat completions',
  },
  tokenizer: { flag: 'tokenizer', arg: 'DIR', parse: nonEmptyTextOption, needs: 'tokenIn', help: 'with --token-in: the orchestrator model\'s folder as Hugging Face model folders are downloaded: tokenizer.json, or tiktoken.model with tokenizer_config.json (Kimi\'s layout); the chat template from tokenizer_config.json\'s chat_template or chat_template.jinja' },
  chatTemplate: { flag: 'chat-template', arg: 'FILE', parse: nonEmptyTextOption, needs: 'tokenIn', help: 'with --token-in: a Jinja chat template file used instead of the folder\'s' },
  toolCallParser: { flag: 'tool-call-parser', arg: 'NAME', choices: TOOL_CALL_PARSER_NAMES, parse: choiceOption(TOOL_CALL_PARSER_NAMES), needs: 'tokenIn', defaultText: 'hermes', help: 'with --token-in: how tool calls are read from a completion, named as vLLM names its parsers: hermes (Qwen2.5, Qwen3, Hermes: <tool_call>{json}</tool_call>) or kimi_k2 (Kimi K2\'s tool-call sections)' },
  reasoningParser: { flag: 'reasoning-parser', arg: 'NAME', choices: REASONING_PARSER_NAMES, parse: choiceOption(REASONING_PARSER_NAMES), needs: 'tokenIn', defaultText: 'none', help: 'with --token-in: how reasoning is split off a completion, named as vLLM names its parsers: qwen3 (<think>…</think>) or none' },
  maxModelLen: { flag: 'max-model-len', arg: 'N', parse: positiveIntegerOption, needs: 'tokenIn', help: 'with --token-in: the model\'s context length: each call\'s max_tokens is the room left, and a prompt that would reach it ends the episode (end_reason "context")' },
  rewardUrl: {
    flag: 'reward-url',
    arg: 'URL',
    parse: urlTemplateOption,
    help: 'POST each finished rollout\'s reward fields as JSON to this URL (a template as --base-url), retried; a failure is named and the line is still written',
  },
  queue: { ...QUEUE_URL_ROW, arg: 'URL', help: 'run the episodes on parl worker processes through a BullMQ queue in Redis (redis://[:PASSWORD@]HOST[:PORT][/DB], or env:NAME to read the URL from the environment variable NAME so the password is not in the process list); this process writes the lines; each worker reads the API key from its own environment' },
  queueName: { ...QUEUE_NAME_ROW, arg: 'NAME', help: 'the queue\'s name in Redis (with --queue; parl worker --queue-name must match)' },
});

/** `parl swarm eval`'s options. */
export const SWARM_EVAL_OPTIONS = defineOptionTable({
  ...common,
  targets: { flag: 'targets', arg: 'LIST', parse: targetsOption, default: [0.3, 0.5, 0.7, 0.9], defaultText: '0.3,0.5,0.7,0.9', help: 'r_perf targets of the latency-to-target table' },
  report: { flag: 'report', arg: 'FILE', parse: nonEmptyTextOption, help: 'write a self-contained HTML report (the latency-to-target curves) to FILE' },
  out: { flag: 'out', arg: 'FILE', parse: nonEmptyTextOption, help: 'write the evaluation (JSON) to FILE, atomically, instead of stdout; when episodes failed, a rerun with the same flags grades only those' },
});

/** The settings `parl swarm run` takes, resolved (derived from {@link SWARM_RUN_OPTIONS}: `model` required, defaults filled). */
export type SwarmRunOptions = ResolvedOptions<typeof SWARM_RUN_OPTIONS>;

/** The settings `parl swarm eval` takes, resolved (derived from {@link SWARM_EVAL_OPTIONS}). */
export type SwarmEvalOptions = ResolvedOptions<typeof SWARM_EVAL_OPTIONS>;

/** The tool settings both commands take (spec §10.3): `--tools`, the MCP rows ({@link McpSettings}' keys) and how tools run. */
export type SwarmToolOptions = Pick<SwarmRunOptions, 'tools' | keyof McpSettings | 'toolsFor' | 'toolTimeout' | 'toolConcurrency' | 'depth'>;
