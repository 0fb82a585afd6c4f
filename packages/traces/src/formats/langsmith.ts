/**
 * LangSmith runs (`id`, `trace_id`, `parent_run_id` or `dotted_order`, `run_type`, `start_time`,
 * `end_time`, `error`, `status`), flat or nested through `child_runs`.
 *
 * @module
 */
import { spanLabel, type SpanRole } from '../span.js';
import { msFromIsoOrEpoch } from '../internal/time.js';
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

/**
 * `run_type` values and the role they give a run. A `chain` stands for an agent when it is the
 * root run or the child of a `tool` run (an agent used as a tool) — see {@link SpanRole}.
 */
export const LANGSMITH_RUN_ROLES: Readonly<Record<string, SpanRole>> = {
  agent: 'agent',
  llm: 'llm',
  tool: 'tool',
  chain: 'chain',
  retriever: 'other',
  embedding: 'other',
  prompt: 'other',
  parser: 'other',
};

/** True when `value` looks like a LangSmith run. */
export function isLangSmithRun(value: Record<string, unknown>): boolean {
  return typeof value['run_type'] === 'string';
}

/**
 * The run ids of a `dotted_order` (`<time>Z<run-id>.<time>Z<child-id>…`), root first.
 *
 * @returns the ids, or undefined when the string is not a dotted order
 */
export function idsOfDottedOrder(dotted: string): string[] | undefined {
  const ids: string[] = [];
  for (const segment of dotted.split('.')) {
    const z = segment.indexOf('Z');
    if (z < 0 || z === segment.length - 1) return undefined;
    ids.push(segment.slice(z + 1));
  }
  return ids;
}

function readRun(value: unknown, location: string, inherited: { parentId?: string; traceId?: string }, out: SpanReadResult[]): void {
  let childParent: string | undefined;
  let childTrace: string | undefined;
  out.push(
    catchSpanError(() => {
      let ctx: SpanContext = { label: 'run', location };
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw spanFieldError(ctx, '(run)', value, 'a LangSmith run object');
      }
      const run = value as Record<string, unknown>;
      const rawName = typeof run['name'] === 'string' ? run['name'] : '';
      const spanId = requireId(run, 'id', ctx);
      const label = (): string => spanLabel({ spanId, name: rawName }).replace(/^span/, 'run');
      ctx = { label, location, spanId };
      const dotted = typeof run['dotted_order'] === 'string' ? idsOfDottedOrder(run['dotted_order']) : undefined;
      if (typeof run['dotted_order'] === 'string' && dotted === undefined) {
        throw spanFieldError(ctx, 'dotted_order', run['dotted_order'], 'a dotted order "<time>Z<run id>.<time>Z<run id>…"');
      }
      if (dotted !== undefined && dotted[dotted.length - 1] !== spanId) {
        throw spanFieldError(ctx, 'dotted_order', run['dotted_order'], `a dotted order ending in the run's own id ${spanId}`);
      }
      const parentId =
        optionalParentId(run, 'parent_run_id', ctx) ??
        (dotted !== undefined && dotted.length >= 2 ? dotted[dotted.length - 2] : undefined) ??
        inherited.parentId;
      const rawTrace = run['trace_id'];
      if (rawTrace !== undefined && rawTrace !== null && (typeof rawTrace !== 'string' || rawTrace === '')) {
        throw spanFieldError(ctx, 'trace_id', rawTrace, 'a non-empty id string');
      }
      const traceId =
        (typeof rawTrace === 'string' ? rawTrace : undefined) ?? dotted?.[0] ?? inherited.traceId ?? (parentId === undefined ? spanId : undefined);
      if (traceId === undefined) {
        throw spanFieldError(ctx, 'trace_id', rawTrace, 'a trace id (or a dotted_order) on a run that has a parent');
      }
      ctx = { label, location, spanId, traceId };
      const type = run['run_type'];
      if (typeof type !== 'string') throw spanFieldError(ctx, 'run_type', type, 'a string');
      const { startMs, endMs } = requireTimes(run, 'start_time', 'end_time', msFromIsoOrEpoch, ctx);
      const warnings: string[] = [];
      let role = Object.hasOwn(LANGSMITH_RUN_ROLES, type) ? LANGSMITH_RUN_ROLES[type] : undefined;
      if (role === undefined) {
        warnings.push(`${spanLabel({ spanId, name: rawName }).replace(/^span/, 'run')}: unknown run_type ${JSON.stringify(type)}; the run counts as neither agent, LLM call nor tool call`);
        role = 'other';
      }
      const err = run['error'];
      childParent = spanId;
      childTrace = traceId;
      const span: MutableSpan = {
        traceId,
        spanId,
        parentId,
        name: rawName,
        role,
        rawKind: type,
        startMs,
        endMs,
        error: (err !== undefined && err !== null && err !== '') || run['status'] === 'error',
        format: 'langsmith',
        location,
        warnings,
      };
      addContent(span, run['inputs'], run['outputs']);
      return span;
    }),
  );
  const children = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['child_runs'] : undefined;
  if (Array.isArray(children) && childParent !== undefined) {
    const inheritedChild: { parentId?: string; traceId?: string } = { parentId: childParent };
    if (childTrace !== undefined) inheritedChild.traceId = childTrace;
    for (const child of children) readRun(child, location, inheritedChild, out);
  }
}

/**
 * Read one LangSmith run and its nested `child_runs` into spans.
 *
 * @param value - the parsed run
 * @param location - where it was read
 */
export function readLangSmithRun(value: Record<string, unknown>, location: string): SpanReadResult[] {
  const out: SpanReadResult[] = [];
  readRun(value, location, {}, out);
  return out;
}

/** LangSmith runs, flat or nested. */
export const LANGSMITH_FORMAT: TraceFormatDefinition<'langsmith'> = {
  name: 'langsmith',
  title: SPAN_FORMAT_TITLES['langsmith'],
  shape: 'a LangSmith run',
  expected: 'a LangSmith run ({"id", "run_type", "start_time", …})',
  detect: isLangSmithRun,
  read: readLangSmithRun,
  wrappers: ['runs'],
  parentField: 'parent_run_id',
  modelCalls: [`a LangSmith ${orList(keysWithRole(LANGSMITH_RUN_ROLES, 'llm'))} run`],
  toolCalls: [`a LangSmith ${orList(keysWithRole(LANGSMITH_RUN_ROLES, 'tool'))} run`],
};
