/**
 * A toy trace format, added the way CONTRIBUTING.md "Adding a trace format" describes: one
 * `TraceFormatDefinition` (here in a test fixture instead of `src/formats/toy.ts`), given to the
 * readers through `withTraceFormats` (in the package, one line in `formats/registry.ts`).
 * A toy span is `{"toy": "<trace>/<span>", "up": "<parent span>" | null, "what": "agent" | "model" | "tool", "from": ms, "to": ms}`.
 */
import type { SpanRole, TraceFormatDefinition, TraceSpan } from '../../src/index.js';
import { TraceInputError } from '../../src/index.js';

const TOY_ROLES: Readonly<Record<string, SpanRole>> = { agent: 'agent', model: 'llm', tool: 'tool' };

function readToySpan(value: Record<string, unknown>, location: string): TraceSpan | TraceInputError {
  const id = value['toy'];
  if (typeof id !== 'string' || !id.includes('/')) return new TraceInputError('toy span.toy', id, 'a "<trace>/<span>" id', location);
  const [traceId, spanId] = id.split('/') as [string, string];
  const what = value['what'];
  const from = value['from'];
  const to = value['to'];
  if (typeof from !== 'number' || typeof to !== 'number' || to < from) return new TraceInputError(`toy span ${id}.to`, to, 'a time at or after "from"', location);
  const role = typeof what === 'string' && Object.hasOwn(TOY_ROLES, what) ? (TOY_ROLES[what] as SpanRole) : 'other';
  const up = value['up'];
  const span: TraceSpan = {
    traceId,
    spanId,
    parentId: typeof up === 'string' ? up : undefined,
    name: spanId,
    role,
    rawKind: typeof what === 'string' ? what : '',
    startMs: from,
    endMs: to,
    error: false,
    // A format of one's own is not one of the built-in names the TraceSpan type lists.
    format: 'toy' as TraceSpan['format'],
    location,
    warnings: [],
  };
  return span;
}

/** The toy format's definition. */
export const TOY_FORMAT: TraceFormatDefinition<'toy'> = {
  name: 'toy',
  title: 'Toy',
  shape: 'a toy span',
  expected: 'a toy span ({"toy": "<trace>/<span>", "what", "from", "to"})',
  detect: (value) => typeof value['toy'] === 'string',
  read: (value, location) => [readToySpan(value, location)],
  parentField: 'up',
  modelCalls: ['a toy model span'],
  toolCalls: ['a toy tool span'],
};
