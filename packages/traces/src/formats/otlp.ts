/**
 * OpenTelemetry spans in OTLP JSON (`resourceSpans` → `scopeSpans` → `spans`), read with the
 * GenAI semantic conventions.
 *
 * @module
 */
import { ROLLOUT_ID_ATTRIBUTE } from '@parl/core';
import { spanLabel, type SpanRole } from '../span.js';
import { msFromUnixNano } from '../internal/time.js';
import { LANGSMITH_RUN_ROLES } from './langsmith.js';
import { isMastraSpan } from './mastra.js';
import { decodeAttributes, type AttributeValue } from '../internal/formats/otlp-attributes.js';
import {
  addContent,
  catchSpanError,
  optionalParentId,
  requireId,
  requireTimes,
  spanFieldError,
  type MutableSpan,
  type SpanContext,
  type SpanReadResult,
} from './span-fields.js';
import { SPAN_FORMAT_TITLES } from './format-names.js';
import { keysWithRole, orList, type TraceFormatDefinition } from './trace-format.js';

/** `gen_ai.operation.name` values and the role they give a span. */
export const OTEL_OPERATION_ROLES: Readonly<Record<string, SpanRole>> = {
  invoke_agent: 'agent',
  create_agent: 'other',
  chat: 'llm',
  text_completion: 'llm',
  generate_content: 'llm',
  execute_tool: 'tool',
  embeddings: 'other',
  retrieval: 'other',
  agent_step: 'other',
  invoke_workflow: 'other',
  plan: 'other',
};

/**
 * The Vercel AI SDK's legacy `ai.*` telemetry (AI SDK 3–6, `LegacyOpenTelemetry` in 7): the
 * `ai.operationId` values and their roles. `ai.generateText` / `ai.streamText` is an agent run,
 * its `doGenerate` / `doStream` a model call (the tool calls it asked for run inside it), and an
 * agent used as a tool is `ai.toolCall` → `ai.generateText`.
 */
export const AI_SDK_OPERATION_ROLES: Readonly<Record<string, SpanRole>> = {
  'ai.generateText': 'agent',
  'ai.streamText': 'agent',
  'ai.generateObject': 'agent',
  'ai.streamObject': 'agent',
  'ai.generateText.doGenerate': 'llm',
  'ai.streamText.doStream': 'llm',
  'ai.generateObject.doGenerate': 'llm',
  'ai.streamObject.doStream': 'llm',
  'ai.toolCall': 'tool',
  'ai.embed': 'other',
  'ai.embedMany': 'other',
  'ai.embed.doEmbed': 'other',
  'ai.embedMany.doEmbed': 'other',
};

/**
 * OpenInference's `openinference.span.kind` (upper case) and Traceloop's `traceloop.span.kind`
 * (lower case), compared in lower case. A `CHAIN` (LangChain / LangGraph runs) stands for an
 * agent only as a root or directly under a tool call (see {@link SpanRole}).
 */
export const SPAN_KIND_ROLES: Readonly<Record<string, SpanRole>> = {
  agent: 'agent',
  llm: 'llm',
  tool: 'tool',
  chain: 'chain',
  workflow: 'chain',
  task: 'other',
  retriever: 'other',
  embedding: 'other',
  reranker: 'other',
  guardrail: 'other',
  evaluator: 'other',
  prompt: 'other',
};

/**
 * VoltAgent (`@voltagent/core` 2.x): `span.type` of an agent's child spans. An agent run itself
 * (the root agent, or a `subagent:<name>` span) has `entity.type: "agent"` and no `span.type`.
 * Its one `llm:*` span covers the whole run, not one model call: the mapping derives the model
 * calls from it (see `derive-voltagent.ts`), hence the role `llm` with the raw kind
 * {@link VOLTAGENT_RUN_KIND}.
 */
export const VOLTAGENT_SPAN_TYPE_ROLES: Readonly<Record<string, SpanRole>> = {
  llm: 'llm',
  tool: 'tool',
  agent: 'agent',
  memory: 'other',
  retriever: 'other',
  guardrail: 'other',
  'workflow-step': 'other',
  scorer: 'other',
};

/** The raw kind of a VoltAgent `llm:*` span, which covers a whole agent run (several model calls). */
export const VOLTAGENT_RUN_KIND = 'voltagent.llm_run';

/** Attributes holding a span's input content, in order of preference. */
const INPUT_KEYS = ['gen_ai.tool.call.arguments', 'gen_ai.input.messages', 'ai.toolCall.args', 'ai.prompt', 'input.value', 'gen_ai.prompt', 'traceloop.entity.input', 'gcp.vertex.agent.tool_call_args', 'input'] as const;
/** Attributes holding a span's output content, in order of preference. */
const OUTPUT_KEYS = ['gen_ai.tool.call.result', 'gen_ai.output.messages', 'ai.toolCall.result', 'ai.response.text', 'output.value', 'gen_ai.completion', 'traceloop.entity.output', 'gcp.vertex.agent.tool_response', 'output'] as const;

function firstOf(attrs: Map<string, AttributeValue>, keys: readonly string[]): AttributeValue | undefined {
  for (const key of keys) {
    const v = attrs.get(key);
    if (v !== undefined && v !== null && v !== '') return v;
  }
  return undefined;
}

const STATUS_ERROR = 2;

function str(attrs: Map<string, AttributeValue>, key: string): string | undefined {
  const v = attrs.get(key);
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
}

function roleOf(attrs: Map<string, AttributeValue>, warnings: string[]): SpanRole {
  // LangSmith's OpenTelemetry mode: the run type beside a gen_ai.operation.name made from it ("chain" for a chain).
  const langsmithKind = str(attrs, 'langsmith.span.kind');
  if (langsmithKind !== undefined && Object.hasOwn(LANGSMITH_RUN_ROLES, langsmithKind)) return LANGSMITH_RUN_ROLES[langsmithKind] as SpanRole;
  const op = str(attrs, 'gen_ai.operation.name');
  if (op !== undefined) {
    // Own keys only: "constructor", "__proto__" or "toString" are unknown operations, not Object.prototype's.
    if (Object.hasOwn(OTEL_OPERATION_ROLES, op)) return OTEL_OPERATION_ROLES[op] as SpanRole;
    warnings.push(`unknown gen_ai.operation.name ${JSON.stringify(op)}; the span counts as neither agent, LLM call nor tool call`);
    return 'other';
  }
  const aiOp = str(attrs, 'ai.operationId');
  if (aiOp !== undefined) {
    if (Object.hasOwn(AI_SDK_OPERATION_ROLES, aiOp)) return AI_SDK_OPERATION_ROLES[aiOp] as SpanRole;
    warnings.push(`unknown ai.operationId ${JSON.stringify(aiOp)}; the span counts as neither agent, LLM call nor tool call`);
    return 'other';
  }
  const voltType = str(attrs, 'span.type');
  if (voltType !== undefined && attrs.has('entity.type')) {
    if (Object.hasOwn(VOLTAGENT_SPAN_TYPE_ROLES, voltType)) return VOLTAGENT_SPAN_TYPE_ROLES[voltType] as SpanRole;
    warnings.push(`unknown VoltAgent span.type ${JSON.stringify(voltType)}; the span counts as neither agent, LLM call nor tool call`);
    return 'other';
  }
  if (voltType === undefined && str(attrs, 'entity.type') === 'agent') return 'agent';
  const kind = str(attrs, 'openinference.span.kind') ?? str(attrs, 'traceloop.span.kind');
  if (kind !== undefined) {
    const k = kind.toLowerCase();
    if (Object.hasOwn(SPAN_KIND_ROLES, k)) return SPAN_KIND_ROLES[k] as SpanRole;
    warnings.push(`unknown span kind ${JSON.stringify(kind)}; the span counts as neither agent, LLM call nor tool call`);
    return 'other';
  }
  // Older GenAI conventions: an LLM call carries gen_ai.system (newer: gen_ai.provider.name) and a model.
  const provider = str(attrs, 'gen_ai.provider.name') ?? str(attrs, 'gen_ai.system');
  const model = str(attrs, 'gen_ai.request.model') ?? str(attrs, 'gen_ai.response.model');
  if (provider !== undefined && model !== undefined) return 'llm';
  if (str(attrs, 'gen_ai.tool.name') !== undefined) return 'tool';
  if (str(attrs, 'gen_ai.agent.name') !== undefined || str(attrs, 'gen_ai.agent.id') !== undefined) return 'agent';
  return 'other';
}

/** True when `events` (an OTLP span's) holds an `exception` event. */
function hasExceptionEvent(events: unknown): boolean {
  return Array.isArray(events) && events.some((e) => typeof e === 'object' && e !== null && (e as Record<string, unknown>)['name'] === 'exception');
}

/**
 * Whether the span ended in error: status ERROR or an `error.type` attribute; for LangSmith's
 * OpenTelemetry spans (`langsmith.span.kind`) also an `exception` event, the only mark its
 * translator leaves (it sets status OK when the run starts, and OpenTelemetry keeps an OK status
 * final, so the ERROR it sets when the run fails is dropped).
 */
function isErrorStatus(status: unknown, attrs: Map<string, AttributeValue>, events: unknown): boolean {
  if (attrs.has('error.type')) return true;
  if (attrs.has('langsmith.span.kind') && hasExceptionEvent(events)) return true;
  if (typeof status !== 'object' || status === null) return false;
  const code = (status as Record<string, unknown>)['code'];
  return code === STATUS_ERROR || code === 'STATUS_CODE_ERROR';
}

/**
 * Read one OTLP JSON span object.
 *
 * @param value - the span (`traceId`, `spanId`, `parentSpanId`, `name`, `startTimeUnixNano`,
 *   `endTimeUnixNano`, `attributes`, `status`)
 * @param location - where it was read, for messages
 * @returns the span, or a {@link TraceInputError} naming what is wrong
 */
export function readOtlpSpan(value: unknown, location: string): SpanReadResult {
  return catchSpanError(() => {
    let ctx: SpanContext = { label: 'span', location };
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw spanFieldError(ctx, '(span)', value, 'an OTLP span object');
    }
    const s = value as Record<string, unknown>;
    const rawName = typeof s['name'] === 'string' ? s['name'] : '';
    const spanId = requireId(s, 'spanId', ctx);
    // Contexts written out, not spread: this runs for every span a server receives.
    const label = (): string => spanLabel({ spanId, name: rawName });
    ctx = { label, location, spanId };
    const traceId = requireId(s, 'traceId', ctx);
    ctx = { label, location, spanId, traceId };
    const parentId = optionalParentId(s, 'parentSpanId', ctx);
    const { startMs, endMs } = requireTimes(s, 'startTimeUnixNano', 'endTimeUnixNano', msFromUnixNano, ctx);
    const warnings: string[] = [];
    const attrs = decodeAttributes(s['attributes'], warnings);
    const role = roleOf(attrs, warnings);
    const name =
      role === 'agent'
        ? (str(attrs, 'gen_ai.agent.name') ??
          str(attrs, 'gen_ai.agent.id') ??
          str(attrs, 'ai.telemetry.functionId') ??
          str(attrs, 'agent.name') ??
          // VoltAgent: a sub-agent's own name (its entity.name is its parent's), else the agent's.
          str(attrs, 'subagent.name') ??
          str(attrs, 'entity.name') ??
          rawName)
        : role === 'tool'
          ? (str(attrs, 'gen_ai.tool.name') ?? str(attrs, 'ai.toolCall.name') ?? str(attrs, 'tool.name') ?? rawName)
          : rawName;
    const span: MutableSpan = {
      traceId,
      spanId,
      parentId,
      name,
      role,
      rawKind:
        str(attrs, 'gen_ai.operation.name') ??
        str(attrs, 'ai.operationId') ??
        (role === 'llm' && str(attrs, 'span.type') === 'llm' && attrs.has('entity.type') ? VOLTAGENT_RUN_KIND : undefined) ??
        (str(attrs, 'openinference.span.kind') ?? str(attrs, 'traceloop.span.kind') ?? '').toLowerCase(),
      startMs,
      endMs,
      error: isErrorStatus(s['status'], attrs, s['events']),
      format: 'otlp',
      location,
      warnings: warnings.length === 0 ? warnings : warnings.map((w) => `${spanLabel({ spanId, name })}: ${w}`),
    };
    addContent(span, firstOf(attrs, INPUT_KEYS), firstOf(attrs, OUTPUT_KEYS));
    const rollout = str(attrs, ROLLOUT_ID_ATTRIBUTE);
    if (rollout !== undefined && rollout !== '') span.rolloutId = rollout;
    return span;
  });
}

/**
 * Read an OTLP JSON export request (`{"resourceSpans":[…]}`, as the OTLP/HTTP JSON exporter sends
 * and the collector's file exporter writes one per line) into its spans. Older `instrumentationLibrarySpans`
 * is accepted in place of `scopeSpans`.
 *
 * @param value - the parsed request
 * @param location - where it was read
 */
export function readOtlpRequest(value: Record<string, unknown>, location: string): SpanReadResult[] {
  const out: SpanReadResult[] = [];
  const ctx: SpanContext = { label: 'export request', location };
  const resourceSpans = value['resourceSpans'];
  if (!Array.isArray(resourceSpans)) return [spanFieldError(ctx, 'resourceSpans', resourceSpans, 'an array')];
  resourceSpans.forEach((rs, r) => {
    const scopes =
      typeof rs === 'object' && rs !== null
        ? ((rs as Record<string, unknown>)['scopeSpans'] ?? (rs as Record<string, unknown>)['instrumentationLibrarySpans'])
        : undefined;
    if (!Array.isArray(scopes)) {
      out.push(spanFieldError(ctx, `resourceSpans[${r}].scopeSpans`, scopes, 'an array'));
      return;
    }
    scopes.forEach((sc, k) => {
      const spans = typeof sc === 'object' && sc !== null ? (sc as Record<string, unknown>)['spans'] : undefined;
      if (!Array.isArray(spans)) {
        out.push(spanFieldError(ctx, `resourceSpans[${r}].scopeSpans[${k}].spans`, spans, 'an array'));
        return;
      }
      for (const span of spans) out.push(readOtlpSpan(span, location));
    });
  });
  return out;
}

/** Fields that only OTLP spans have: one of them makes an object an OTLP span. */
const OTLP_SPAN_KEYS = ['spanId', 'startTimeUnixNano', 'endTimeUnixNano', 'parentSpanId', 'traceState', 'droppedAttributesCount'] as const;

/**
 * True when `value` is an OTLP export request (`resourceSpans`) or an OTLP span. A Mastra span
 * (which has a `parentSpanId` too) is not one.
 */
export function isOtlpValue(value: Record<string, unknown>): boolean {
  if (Object.hasOwn(value, 'resourceSpans')) return true;
  if (isMastraSpan(value)) return false;
  return (
    OTLP_SPAN_KEYS.some((k) => Object.hasOwn(value, k)) ||
    (Object.hasOwn(value, 'traceId') && Object.hasOwn(value, 'kind') && Object.hasOwn(value, 'attributes'))
  );
}

/** Span shapes of one role, from the tables {@link readOtlpSpan} reads roles from. */
function otlpShapes(role: 'llm' | 'tool'): string[] {
  const kinds = keysWithRole(SPAN_KIND_ROLES, role).map((k) => k.toUpperCase());
  const volt = keysWithRole(VOLTAGENT_SPAN_TYPE_ROLES, role);
  return [
    `a span with gen_ai.operation.name ${orList(keysWithRole(OTEL_OPERATION_ROLES, role))}`,
    `a span with langsmith.span.kind ${orList(keysWithRole(LANGSMITH_RUN_ROLES, role))}`,
    `an AI SDK span with ai.operationId ${orList(keysWithRole(AI_SDK_OPERATION_ROLES, role))}`,
    // VoltAgent names its one model span of a run `llm:<operation>` (`llm:generateText`).
    `a VoltAgent span with span.type ${orList(volt)}${role === 'llm' ? ` (${volt.map((t) => `${t}:*`).join(', ')})` : ''}`,
    `an OpenInference or Traceloop ${orList(kinds)} span`,
    role === 'llm'
      ? 'a span with gen_ai.provider.name or gen_ai.system and gen_ai.request.model or gen_ai.response.model (Google ADK call_llm)'
      : 'a span with gen_ai.tool.name',
  ];
}

/** OpenTelemetry spans as OTLP JSON: export requests and single spans. */
export const OTLP_FORMAT: TraceFormatDefinition<'otlp'> = {
  name: 'otlp',
  title: SPAN_FORMAT_TITLES['otlp'],
  shape: 'an OTLP span or request',
  expected: 'an OTLP export request ({"resourceSpans": …}) or an OTLP span ({"traceId", "spanId", …})',
  detect: isOtlpValue,
  read: (value, location) => ('resourceSpans' in value ? readOtlpRequest(value, location) : [readOtlpSpan(value, location)]),
  parentField: 'parentSpanId',
  modelCalls: otlpShapes('llm'),
  toolCalls: otlpShapes('tool'),
};
