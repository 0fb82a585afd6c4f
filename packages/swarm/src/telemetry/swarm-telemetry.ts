/**
 * The episode's OpenTelemetry spans under the GenAI semantic conventions (spec §10):
 * `invoke_agent` for the orchestrator and each sub-agent, `chat` for each model call,
 * `execute_tool` for each tool call, and, under the latest conventions
 * (`OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental`, see `gen-ai-conventions.ts`), a
 * `create_agent` span for each `create_subagent` call. Only `@opentelemetry/api` is used: the
 * spans go to the tracer the caller gives (or the global tracer provider's); without an SDK they
 * are no-ops, and when the episode's root span is not recorded (no SDK, or not sampled) no other
 * span of the episode is started and no attribute is built: no one would read them.
 *
 * @module
 */
import { context, INVALID_SPAN_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { ROLLOUT_ID_ATTRIBUTE } from '@parl/core';
import { hrTimeOf, type MicrosecondClock } from './clock.js';
import { genAiConventionsOf, type GenAiConventions } from './gen-ai-conventions.js';

/** The instrumentation scope name of the swarm's spans. */
export const SWARM_TRACER_NAME = '@parl/swarm';

/** An open span and the context its children start in. */
export interface OpenSpan {
  readonly span: Span;
  readonly context: Context;
}

/** A model as the spans name it. */
interface SpanModel {
  readonly provider: string;
  readonly modelId: string;
}

/** The tool call that defines a sub-agent: a `create_agent` span under the latest conventions. */
const CREATE_SUBAGENT = 'create_subagent';

/** The name a `create_subagent` call's arguments give, when they hold one. */
function subagentNameOf(input: string): string | undefined {
  try {
    const name = (JSON.parse(input) as { name?: unknown } | null)?.name;
    return typeof name === 'string' && name.trim() !== '' ? name : undefined;
  } catch {
    return undefined;
  }
}

/** A span's attributes, or what makes them (called only when the span is recorded). */
export type LazyAttributes = Attributes | (() => Attributes);

/** The one span of an episode whose root is not recorded: every child is it, and ending it does nothing. */
const SILENT_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** Starts and ends the episode's spans on the episode clock. */
export class SwarmTelemetry {
  private readonly tracer: Tracer;
  /** Whether the episode's root span is recorded (known once it started). */
  private recording = true;
  /** `create_agent` spans: a tool call's result is not one of their attributes. */
  private readonly createAgentSpans = new WeakSet<Span>();

  /**
   * @param clock - the episode clock (span times, and the live record's wave order)
   * @param tracer - the tracer to use (default: the global provider's `@parl/swarm` tracer)
   * @param subagentModel - the sub-agents' model (a `create_agent` span names it)
   * @param conventions - which GenAI conventions to follow (default: as `OTEL_SEMCONV_STABILITY_OPT_IN` says)
   */
  constructor(
    private readonly clock: MicrosecondClock,
    tracer: Tracer | undefined,
    private readonly subagentModel?: SpanModel,
    readonly conventions: GenAiConventions = genAiConventionsOf(),
  ) {
    this.tracer = tracer ?? trace.getTracer(SWARM_TRACER_NAME);
  }

  private start(name: string, parent: OpenSpan | undefined, attributes: LazyAttributes, at: number, kind: SpanKind): OpenSpan {
    if (parent !== undefined && !this.recording) return { span: SILENT_SPAN, context: parent.context };
    const parentContext = parent?.context ?? context.active();
    const span = this.tracer.startSpan(name, { kind, attributes: typeof attributes === 'function' ? attributes() : attributes, startTime: hrTimeOf(at) }, parentContext);
    if (parent === undefined) this.recording = span.isRecording();
    return { span, context: trace.setSpan(parentContext, span) };
  }

  /** An `invoke_agent` span (the orchestrator under `parent` undefined; a sub-agent under its `assign_task` tool span). */
  agent(name: string, parent: OpenSpan | undefined, at: number, input?: string): OpenSpan {
    return this.start(`invoke_agent ${name}`, parent, {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': name,
      ...(input === undefined ? {} : { 'gen_ai.input.messages': input }),
    }, at, SpanKind.INTERNAL);
  }

  /**
   * Name the episode on its root span: `parl.task.id`, and the record's id under
   * `parl.rollout_id` (`@parl/core`'s `ROLLOUT_ID_ATTRIBUTE`), so that `parl trace` keys the
   * trace's record by it and it joins the rollout line.
   */
  episode(root: OpenSpan, taskId: string, rolloutId: string): void {
    root.span.setAttributes({ 'parl.task.id': taskId, [ROLLOUT_ID_ATTRIBUTE]: rolloutId });
  }

  /** A `chat` span: one model call. */
  chat(model: { provider: string; modelId: string }, parent: OpenSpan, at: number): OpenSpan {
    return this.start(`chat ${model.modelId}`, parent, {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': model.provider,
      'gen_ai.request.model': model.modelId,
    }, at, SpanKind.CLIENT);
  }

  /**
   * An `execute_tool` span: one tool call; under the latest conventions a `create_subagent` call
   * that names its sub-agent is a `create_agent {name}` span instead. `input` (the arguments'
   * text) is made only when the span is recorded.
   */
  tool(name: string, callId: string, input: () => string, parent: OpenSpan, at: number): OpenSpan {
    if (!this.recording) return { span: SILENT_SPAN, context: parent.context };
    const subagent = this.conventions === 'latest' && name === CREATE_SUBAGENT ? subagentNameOf(input()) : undefined;
    if (subagent !== undefined) {
      const open = this.start(`create_agent ${subagent}`, parent, {
        'gen_ai.operation.name': 'create_agent',
        'gen_ai.agent.name': subagent,
        ...(this.subagentModel === undefined ? {} : { 'gen_ai.provider.name': this.subagentModel.provider, 'gen_ai.request.model': this.subagentModel.modelId }),
      }, at, SpanKind.CLIENT);
      this.createAgentSpans.add(open.span);
      return open;
    }
    return this.start(`execute_tool ${name}`, parent, () => ({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': name,
      'gen_ai.tool.call.id': callId,
      'gen_ai.tool.call.arguments': input(),
    }), at, SpanKind.INTERNAL);
  }

  /** The clock's next reading. */
  now(): number {
    return this.clock.now();
  }

  /** End a span at `at`; an `error` marks it as failed (`error.type` and status ERROR). */
  end(open: OpenSpan, at: number, error?: { type: string; message: string }, lazyAttributes?: LazyAttributes): void {
    if (open.span === SILENT_SPAN) return;
    if (lazyAttributes !== undefined) {
      const attributes = typeof lazyAttributes === 'function' ? lazyAttributes() : lazyAttributes;
      const own = this.createAgentSpans.has(open.span) ? Object.fromEntries(Object.entries(attributes).filter(([key]) => !key.startsWith('gen_ai.tool.'))) : attributes;
      open.span.setAttributes(own);
    }
    if (error !== undefined) {
      open.span.setAttribute('error.type', error.type);
      open.span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    }
    open.span.end(hrTimeOf(at));
  }
}
