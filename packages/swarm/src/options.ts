/**
 * The options of `parl swarm run` and `parl swarm eval`, declared once (core's option tables):
 * the CLI's flags, their parsing, help and the docs' tables come from these rows. A tiny module
 * (`@parl/swarm/options`, core only) so that help never loads the AI SDK.
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
  positiveDecimalOption,
  ParlInputError,
  positiveIntegerOption,
  switchOption,
  type BudgetMode,
  type OptionParser,
} from '@parl/core';
import { LIMIT_PRESET_NAMES, type LimitPreset } from './runtime/limits.js';
import { SUITE_NAMES, type SuiteName } from './tasks/task.js';
import { TOOLS_FOR, type ToolsFor } from './tools/tools-for.js';

/** Who runs the sub-agents: a language model with the task's tools, or the frozen look-up program. */
export const SUBAGENT_KINDS = ['llm', 'scripted'] as const;

/** A sub-agent kind. */
export type SubagentKind = (typeof SUBAGENT_KINDS)[number];

/** An http(s) URL. */
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

/** A redis:// or rediss:// URL (the queue's; checked again, with the same words, where it connects). */
const redisUrlOption: OptionParser<string> = (text, field) => {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'redis:' && url?.protocol !== 'rediss:') throw new ParlInputError(field, text, 'a Redis URL: redis://HOST[:PORT][/DB] or rediss://…');
  return text;
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

/** One or more `--mcp` values (one per line, as a repeated flag hands them over), each `stdio:COMMAND ARGS…` or an http(s) URL. */
const mcpOption: OptionParser<string[]> = (text, field) =>
  text.split('\n').map((one) => {
    if (one.startsWith('stdio:') ? one.slice(6).trim() === '' : !/^https?:\/\/[^\s]+$/.test(one)) {
      throw new ParlInputError(field, one, 'stdio:COMMAND ARGS… (a server to start) or an http(s):// URL (a streamable-HTTP MCP server)');
    }
    return one;
  });

/** The tool settings both commands take (spec §10.3). */
export interface SwarmToolOptions {
  readonly tools?: string;
  readonly mcp?: string[];
  readonly toolsFor: ToolsFor;
  readonly toolTimeout: number;
  readonly toolConcurrency: number;
  readonly depth: number;
}

/** The settings `parl swarm run` takes. */
export interface SwarmRunOptions extends SwarmToolOptions {
  readonly baseUrl: string;
  readonly model: string;
  readonly subagentModel?: string;
  readonly subagents: SubagentKind;
  readonly suite: SuiteName;
  readonly tasks: number;
  readonly seed: number;
  readonly groupSize: number;
  readonly concurrency: number;
  readonly limits: LimitPreset;
  readonly budget?: number;
  readonly onBudget: BudgetMode;
  readonly trainingStep?: number;
  readonly out?: string;
  readonly spans?: string;
  readonly queue?: string;
  readonly queueName?: string;
  readonly logprobs?: boolean;
}

const common = {
  baseUrl: { flag: 'base-url', arg: 'URL', parse: urlOption, help: 'the OpenAI-compatible endpoint (vLLM, SGLang, Ollama, LM Studio, llama.cpp server); the API key is read from PARL_API_KEY or OPENAI_API_KEY' },
  model: { flag: 'model', arg: 'NAME', parse: nonEmptyTextOption, help: 'the orchestrator\'s model' },
  subagentModel: { flag: 'subagent-model', arg: 'NAME', parse: nonEmptyTextOption, defaultText: 'the --model', help: 'the sub-agents\' model (frozen), on the same endpoint' },
  subagents: { flag: 'subagents', arg: 'KIND', choices: SUBAGENT_KINDS, parse: choiceOption(SUBAGENT_KINDS), default: 'llm', help: 'sub-agents as language models with the task\'s tools, or the frozen look-up program (no model calls)' },
  suite: { flag: 'suite', arg: 'SUITE', choices: SUITE_NAMES, parse: choiceOption(SUITE_NAMES), default: 'wide', help: 'the task suite, generated offline from --seed' },
  tasks: { flag: 'tasks', arg: 'N', parse: positiveIntegerOption, default: 10, help: 'tasks to generate' },
  seed: { flag: 'seed', arg: 'S', parse: integerOptionIn(0), default: 1, help: 'seed of the suite' },
  concurrency: { flag: 'concurrency', arg: 'C', parse: positiveIntegerOption, default: 8, help: 'sub-agents running at once; the others start as earlier ones end (later waves)' },
  limits: { flag: 'limits', arg: 'PRESET', choices: LIMIT_PRESET_NAMES, parse: choiceOption(LIMIT_PRESET_NAMES), default: 'default', help: 'model-call caps of the orchestrator / each sub-agent: default 100/50, browsecomp 15/100, widesearch 100/100' },
  tools: { flag: 'tools', arg: 'FILE', parse: nonEmptyTextOption, help: 'a module whose exports are AI SDK tools (tool({ description, inputSchema, execute }), zod or JSON schemas, async allowed), added to the task\'s tools' },
  mcp: { flag: 'mcp', arg: 'SERVER', parse: mcpOption, repeatable: true, help: 'an MCP server whose tools are added to the task\'s tools: stdio:COMMAND ARGS… (started here) or an http(s):// URL (streamable HTTP); repeatable' },
  toolsFor: { flag: 'tools-for', arg: 'WHO', choices: TOOLS_FOR, parse: choiceOption(TOOLS_FOR), default: 'both', help: 'who gets the task\'s tools: the sub-agents and the orchestrator (its direct fallback), the sub-agents only, or the orchestrator only' },
  toolTimeout: { flag: 'tool-timeout', arg: 'S', parse: positiveDecimalOption, default: 60, help: 'seconds a tool call may take; a call past it returns an error to the model (counted in tool_errors)' },
  depth: { flag: 'depth', arg: 'D', parse: integerOptionIn(1, 16), default: 1, help: 'levels of agents: with D > 1 a sub-agent at depth d < D also has create_subagent / assign_task (its record entry nests, spec §5.2); max_subagents, --concurrency and the budget hold over the whole tree' },
  toolConcurrency: { flag: 'tool-concurrency', arg: 'N', parse: positiveIntegerOption, default: 16, help: 'tool calls running at once per --tools module or --mcp server; the others wait' },
} as const;

/** `parl swarm run`'s options. */
export const SWARM_RUN_OPTIONS = defineOptionTable<SwarmRunOptions>({
  ...common,
  groupSize: { flag: 'group-size', arg: 'G', parse: positiveIntegerOption, default: 1, help: 'samples per task (a GRPO group); the lines carry group_id, sample and advantage' },
  budget: { flag: 'budget', arg: 'K', parse: nonNegativeDecimalOption, help: 'critical-step budget, held while each episode runs: no model call starts that could pass K' },
  onBudget: { flag: 'on-budget', arg: 'MODE', choices: BUDGET_MODES, parse: choiceOption(BUDGET_MODES), default: 'fail', help: 'r_perf of an episode the budget cut: 0 (fail) or the score of what finished (truncate)' },
  trainingStep: { flag: 'training-step', arg: 'S', parse: nonNegativeDecimalOption, default: 0, help: 'training step of the spec §3 reward fields (λ1, λ2)' },
  out: { flag: 'out', arg: 'FILE', parse: nonEmptyTextOption, help: 'write the rollout lines (JSONL) to FILE, atomically; a rerun resumes, running only the missing task × sample' },
  spans: { flag: 'spans', arg: 'FILE', parse: nonEmptyTextOption, help: 'write the episodes\' OpenTelemetry spans to FILE as OTLP JSON (one export request per line), readable by parl trace' },
  logprobs: { flag: 'logprobs', parse: switchOption, help: 'ask the endpoint for the orchestrator\'s log-probabilities and token ids (OpenAI logprobs, vLLM return_token_ids); its assistant messages carry them as logprobs and token_ids' },
  queue: { flag: 'queue', arg: 'URL', parse: redisUrlOption, help: 'run the episodes on parl worker processes through a BullMQ queue in Redis (redis://HOST[:PORT][/DB]); this process writes the lines; each worker reads the API key from its own environment' },
  queueName: { flag: 'queue-name', arg: 'NAME', parse: nonEmptyTextOption, defaultText: 'parl-sweep', help: 'the queue\'s name in Redis (with --queue; parl worker --queue-name must match)' },
});

/** The settings `parl swarm eval` takes. */
export interface SwarmEvalOptions extends SwarmToolOptions {
  readonly baseUrl: string;
  readonly model: string;
  readonly subagentModel?: string;
  readonly subagents: SubagentKind;
  readonly suite: SuiteName;
  readonly tasks: number;
  readonly seed: number;
  readonly concurrency: number;
  readonly limits: LimitPreset;
  readonly targets: number[];
  readonly report?: string;
  readonly out?: string;
}

/** `parl swarm eval`'s options. */
export const SWARM_EVAL_OPTIONS = defineOptionTable<SwarmEvalOptions>({
  ...common,
  targets: { flag: 'targets', arg: 'LIST', parse: targetsOption, default: [0.3, 0.5, 0.7, 0.9], defaultText: '0.3,0.5,0.7,0.9', help: 'r_perf targets of the latency-to-target table' },
  report: { flag: 'report', arg: 'FILE', parse: nonEmptyTextOption, help: 'write a self-contained HTML report (the latency-to-target curves) to FILE' },
  out: { flag: 'out', arg: 'FILE', parse: nonEmptyTextOption, help: 'write the evaluation (JSON) to FILE, atomically, instead of stdout' },
});
