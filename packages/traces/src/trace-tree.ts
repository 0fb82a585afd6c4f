/**
 * One trace's spans as a checked tree: unique ids, every parent present, no cycle.
 *
 * @module
 */
import { TraceInputError } from './errors.js';
import { formatNamed } from './formats/registry.js';
import { spanLabel, type TraceSpan } from './span.js';

/** A trace's spans indexed as a tree. */
export interface TraceTree {
  /** The trace id. */
  readonly traceId: string;
  /** Every span, in arrival order. */
  readonly spans: readonly TraceSpan[];
  /** Spans by id. */
  readonly byId: ReadonlyMap<string, TraceSpan>;
  /** Children of each span id, in arrival order. */
  readonly children: ReadonlyMap<string, readonly TraceSpan[]>;
  /** Spans without a parent. */
  readonly roots: readonly TraceSpan[];
}

/** The field that holds a span's parent id in its format (the registry's `parentField`; `parent` for a spec §5 record's entries). */
function parentFieldOf(span: TraceSpan): string {
  return formatNamed(span.format)?.parentField ?? 'parent';
}

function treeError(span: TraceSpan, field: string, value: unknown, expected: string): TraceInputError {
  return new TraceInputError(`${spanLabel(span)}.${field}`, value, expected, span.location, {
    traceId: span.traceId,
    spanId: span.spanId,
  });
}

/** Span ids shown at each end of a long cycle in an error message (the line stays short). */
const CYCLE_IDS_SHOWN = 4;

function short(id: string): string {
  return id.length > 64 ? `${id.slice(0, 64)}…` : id;
}

/** `a → b → c → a`, or for a long cycle its first and last ids around `… (N spans) …`. */
function cycleText(cycle: readonly string[]): string {
  if (cycle.length <= 2 * CYCLE_IDS_SHOWN + 1) return cycle.map(short).join(' → ');
  const head = cycle.slice(0, CYCLE_IDS_SHOWN).map(short);
  const tail = cycle.slice(-CYCLE_IDS_SHOWN).map(short);
  return `${head.join(' → ')} → … (${cycle.length - 1} spans in all) … → ${tail.join(' → ')}`;
}

/**
 * Index one trace's spans as a tree.
 *
 * @param traceId - the trace id
 * @param spans - its spans, in arrival order (at least one)
 * @throws {@link TraceInputError} naming the span for a duplicate id, a parent that is not in
 *   the trace, or a cycle of parent links
 */
export function buildTraceTree(traceId: string, spans: readonly TraceSpan[]): TraceTree {
  const byId = new Map<string, TraceSpan>();
  for (const span of spans) {
    const seen = byId.get(span.spanId);
    if (seen !== undefined) {
      throw treeError(span, 'id', span.spanId, `unique within trace ${traceId}, but ${seen.location} has a span with the same id`);
    }
    byId.set(span.spanId, span);
  }
  const children = new Map<string, TraceSpan[]>();
  const roots: TraceSpan[] = [];
  for (const span of spans) {
    if (span.parentId === undefined) {
      roots.push(span);
      continue;
    }
    if (!byId.has(span.parentId)) {
      throw treeError(
        span,
        parentFieldOf(span),
        span.parentId,
        `the id of a span in trace ${traceId} (the parent is missing: truncated or partial export?)`,
      );
    }
    let list = children.get(span.parentId);
    if (list === undefined) children.set(span.parentId, (list = []));
    list.push(span);
  }
  // Every span must reach a root through its parents; the ones that do not sit on or under a cycle.
  const reachesRoot = new Set<string>();
  const stack: TraceSpan[] = [...roots];
  while (stack.length > 0) {
    const span = stack.pop() as TraceSpan;
    reachesRoot.add(span.spanId);
    for (const child of children.get(span.spanId) ?? []) stack.push(child);
  }
  if (reachesRoot.size < spans.length) {
    const start = spans.find((s) => !reachesRoot.has(s.spanId)) as TraceSpan;
    const path: string[] = [];
    const onPath = new Set<string>();
    let cur: TraceSpan = start;
    while (!onPath.has(cur.spanId)) {
      onPath.add(cur.spanId);
      path.push(cur.spanId);
      cur = byId.get(cur.parentId as string) as TraceSpan;
    }
    const cycle = [...path.slice(path.indexOf(cur.spanId)), cur.spanId];
    throw treeError(cur, parentFieldOf(cur), cur.parentId, `a parent link that leads to a root, but the links form a cycle ${cycleText(cycle)}`);
  }
  return { traceId, spans, byId, children, roots };
}
