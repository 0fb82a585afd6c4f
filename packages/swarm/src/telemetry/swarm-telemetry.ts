/**
 * The episode's OpenTelemetry spans under the GenAI semantic conventions (spec §10):
 * `invoke_agent` for the orchestrator and each sub-agent, `chat` for each model call,
 * `execute_tool` for each tool call. Only `@opentelemetry/api` is used: the spans go to the
 * tracer the caller gives (or the global tracer provider's); without an SDK they are no-ops.
 *
 * @module
 */
import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { hrTimeOf, type MicrosecondClock } from './clock.js';

/** The instrumentation scope name of the swarm's spans. */
export const SWARM_TRACER_NAME = '@parl/swarm';

/** An open span and the context its children start in. */
export interface OpenSpan {
  readonly span: Span;
  readonly context: Context;
}

/** Starts and ends the episode's spans on the episode clock. */
export class SwarmTelemetry {
  private readonly tracer: Tracer;

  /**
   * @param clock - the episode clock (span times, and the live record's wave order)
   * @param tracer - the tracer to use (default: the global provider's `@parl/swarm` tracer)
   */
  constructor(
    private readonly clock: MicrosecondClock,
    tracer: Tracer | undefined,
  ) {
    this.tracer = tracer ?? trace.getTracer(SWARM_TRACER_NAME);
  }

  private start(name: string, parent: OpenSpan | undefined, attributes: Attributes, at: number, kind: SpanKind): OpenSpan {
    const parentContext = parent?.context ?? context.active();
    const span = this.tracer.startSpan(name, { kind, attributes, startTime: hrTimeOf(at) }, parentContext);
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

  /** A `chat` span: one model call. */
  chat(model: { provider: string; modelId: string }, parent: OpenSpan, at: number): OpenSpan {
    return this.start(`chat ${model.modelId}`, parent, {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': model.provider,
      'gen_ai.request.model': model.modelId,
    }, at, SpanKind.CLIENT);
  }

  /** An `execute_tool` span: one tool call. */
  tool(name: string, callId: string, input: string, parent: OpenSpan, at: number): OpenSpan {
    return this.start(`execute_tool ${name}`, parent, {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': name,
      'gen_ai.tool.call.id': callId,
      'gen_ai.tool.call.arguments': input,
    }, at, SpanKind.INTERNAL);
  }

  /** The clock's next reading. */
  now(): number {
    return this.clock.now();
  }

  /** End a span at `at`; an `error` marks it as failed (`error.type` and status ERROR). */
  end(open: OpenSpan, at: number, error?: { type: string; message: string }, attributes?: Attributes): void {
    if (attributes !== undefined) open.span.setAttributes(attributes);
    if (error !== undefined) {
      open.span.setAttribute('error.type', error.type);
      open.span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    }
    open.span.end(hrTimeOf(at));
  }
}
