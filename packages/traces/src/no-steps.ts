/**
 * A trace that holds no step information at all (spec §7): a warning naming the trace and what is
 * missing (an error under `strict`), never a record of zeros.
 *
 * @module
 */
import type { ParlErrorCode } from '@parl/core';
import { TraceInputError } from './errors.js';
import { SPAN_FORMATS } from './formats/registry.js';
import { orList } from './formats/trace-format.js';
import type { ResolvedTraceOptions } from './options.js';

/** Every span shape a reader counts as a model call, format by format in registry order: the list the warning names. */
export function modelCallShapes(): string[] {
  return SPAN_FORMATS.flatMap((format) => format.modelCalls);
}

/** Every span shape a reader counts as a tool call, format by format in registry order. */
export function toolCallShapes(): string[] {
  return SPAN_FORMATS.flatMap((format) => format.toolCalls);
}

/** The error {@link traceToResult} throws for a trace without step information; readers turn it into a warning unless `strict`. */
export class NoStepInformationError extends TraceInputError {
  /** The codes this class's errors carry (docs/errors.md): `PARL_ERR_NO_STEPS`. */
  static override readonly codes: readonly ParlErrorCode[] = ['PARL_ERR_NO_STEPS'];
  /**
   * @param traceId - the trace
   * @param spans - how many spans it has
   * @param stepsFrom - what counts as a step (`llm`: model calls; `tools`: tool calls)
   * @param location - where its first span was read
   */
  constructor(traceId: string, spans: number, stepsFrom: ResolvedTraceOptions['stepsFrom'], location: string | undefined) {
    const missing = stepsFrom === 'llm' ? `recognised model call (${orList(modelCallShapes())})` : `tool call (${orList(toolCallShapes())})`;
    super(`trace ${traceId}`, `${spans} span(s) without step information`, `a trace with at least one step, but it has no ${missing}, so no record is written`, location, { traceId }, 'PARL_ERR_NO_STEPS');
    this.name = 'NoStepInformationError';
  }
}
