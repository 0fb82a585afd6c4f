/**
 * Roles that depend on a span's place in its trace: chains that stand for agents, and model calls
 * nested in other model calls (counted once).
 *
 * @module
 */
import type { SpanRole, TraceSpan } from './span.js';
import type { TraceTree } from './trace-tree.js';

/**
 * Each span's role in the mapping. A `chain` (LangSmith `chain` run, OpenInference `CHAIN` span:
 * frameworks without an agent span kind) stands for an agent when the trace has no agent span and
 * the chain is a root (the orchestrator) or directly under a tool call (an agent used as a tool);
 * every other chain stands for nothing.
 */
export function effectiveRoles(tree: TraceTree): Map<string, SpanRole> {
  const roles = new Map<string, SpanRole>();
  let anyAgent = false;
  for (const span of tree.spans) {
    roles.set(span.spanId, span.role);
    if (span.role === 'agent') anyAgent = true;
  }
  for (const span of tree.spans) {
    if (span.role !== 'chain') continue;
    const parent = span.parentId === undefined ? undefined : tree.byId.get(span.parentId);
    const promoted = !anyAgent && (parent === undefined || parent.role === 'tool');
    roles.set(span.spanId, promoted ? 'agent' : 'other');
  }
  return roles;
}

/**
 * The ids of the model calls that count: every `llm` span except one that has another `llm` span
 * of the same agent below it (an OpenAI Agents `turn` span around its `response` span, a wrapper
 * around the provider call). The innermost call counts, so a model call is counted once whatever
 * the framework nests inside it.
 */
export function countedModelCalls(tree: TraceTree, roles: ReadonlyMap<string, SpanRole>): Set<string> {
  const shadowed = new Set<string>();
  for (const span of tree.spans) {
    if (roles.get(span.spanId) !== 'llm') continue;
    let parentId = span.parentId;
    while (parentId !== undefined) {
      const parent = tree.byId.get(parentId);
      if (parent === undefined) break;
      const role = roles.get(parentId);
      if (role === 'agent') break;
      if (role === 'llm') {
        if (shadowed.has(parentId)) break;
        shadowed.add(parentId);
      }
      parentId = parent.parentId;
    }
  }
  const counted = new Set<string>();
  for (const span of tree.spans) if (roles.get(span.spanId) === 'llm' && !shadowed.has(span.spanId)) counted.add(span.spanId);
  return counted;
}
