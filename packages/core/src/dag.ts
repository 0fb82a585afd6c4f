/**
 * Critical steps of a general dependency DAG of weighted steps: the weight of its heaviest path
 * (spec §2, DAG form), with cycle detection that names a node on the cycle.
 *
 * @module
 */
import { ParlInputError, fieldPath, requireArray, requireNonNegative, requireObject } from './errors.js';
import type { NormalizedStage } from './records.js';

/** One node of a step DAG. */
export interface DagNode {
  /** Unique id of the node. */
  readonly id: string;
  /** Its steps (finite, ≥ 0). */
  readonly weight: number;
  /** Ids of the nodes that must finish before this one starts. */
  readonly deps?: readonly string[];
}

/** The heaviest path of a DAG. */
export interface HeaviestPath {
  /** Sum of node weights along the path: the DAG's critical steps. */
  readonly weight: number;
  /** Node ids along the path, from a source to a sink (empty for an empty DAG). */
  readonly path: readonly string[];
}

/**
 * The heaviest (longest weighted) path of a DAG: its critical steps.
 *
 * Runs in O(V + E) with Kahn's topological order.
 *
 * @throws {@link ParlInputError} for a duplicate id, an unknown dependency, a bad weight, or a
 *   cycle (the message names a node on the cycle and the cycle itself)
 *
 * @example
 * ```ts
 * heaviestPath([
 *   { id: 'plan', weight: 1 },
 *   { id: 'a', weight: 3, deps: ['plan'] },
 *   { id: 'b', weight: 5, deps: ['plan'] },
 *   { id: 'merge', weight: 1, deps: ['a', 'b'] },
 * ]); // { weight: 7, path: ['plan', 'b', 'merge'] }
 * ```
 */
export function heaviestPath(nodes: readonly DagNode[]): HeaviestPath {
  const n = requireArray(nodes, 'nodes').length;
  const index = new Map<string, number>();
  const weights = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const node = requireObject(nodes[i], `nodes[${i}]`) as unknown as DagNode;
    if (node.deps !== undefined) requireArray(node.deps, fieldPath(`nodes[${i}]`, 'deps'));
    if (typeof node.id !== 'string' || node.id === '') {
      throw new ParlInputError(fieldPath(`nodes[${i}]`, 'id'), node.id, 'a non-empty string');
    }
    if (index.has(node.id)) throw new ParlInputError(fieldPath(`nodes[${i}]`, 'id'), node.id, 'an id used by no other node');
    index.set(node.id, i);
    weights[i] = requireNonNegative(node.weight, fieldPath(`nodes[${i}]`, 'weight'));
  }
  const children: number[][] = Array.from({ length: n }, () => []);
  const indegree = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const deps = (nodes[i] as DagNode).deps ?? [];
    for (let d = 0; d < deps.length; d++) {
      const dep = deps[d] as string;
      const j = index.get(dep);
      if (j === undefined) {
        throw new ParlInputError(fieldPath(fieldPath(`nodes[${i}]`, 'deps'), d), dep, 'the id of a node in the DAG');
      }
      (children[j] as number[]).push(i);
      indegree[i] = (indegree[i] as number) + 1;
    }
  }
  // start[v]: the heaviest finish among v's dependencies; finish[v] = start[v] + weight[v].
  const start = new Float64Array(n);
  const finish = new Float64Array(n);
  const prev = new Int32Array(n).fill(-1);
  const queue: number[] = [];
  for (let i = 0; i < n; i++) if (indegree[i] === 0) queue.push(i);
  let seen = 0;
  for (let q = 0; q < queue.length; q++) {
    const u = queue[q] as number;
    seen++;
    const done = (start[u] as number) + (weights[u] as number);
    finish[u] = done;
    for (const v of children[u] as number[]) {
      if (prev[v] === -1 || done > (start[v] as number)) {
        start[v] = done;
        prev[v] = u;
      }
      indegree[v] = (indegree[v] as number) - 1;
      if (indegree[v] === 0) queue.push(v);
    }
  }
  if (seen < n) throw cycleError(nodes, index, indegree);
  // Weights are ≥ 0, so a node never finishes later than its dependents: the heaviest path
  // can always end at a sink, and ending there keeps zero-weight sinks on the path.
  let end = -1;
  let bestWeight = 0;
  for (let i = 0; i < n; i++) {
    if ((children[i] as number[]).length > 0) continue;
    if (end === -1 || (finish[i] as number) > bestWeight) {
      end = i;
      bestWeight = finish[i] as number;
    }
  }
  const path: string[] = [];
  for (let v = end; v !== -1; v = prev[v] as number) path.push((nodes[v] as DagNode).id);
  path.reverse();
  return { weight: bestWeight, path };
}

function cycleError(nodes: readonly DagNode[], index: Map<string, number>, indegree: Int32Array): ParlInputError {
  // Every node left with indegree > 0 lies on or downstream of a cycle; walking dependencies
  // that are themselves left must revisit a node, which is then on the cycle.
  let start = 0;
  while ((indegree[start] as number) === 0) start++;
  const order: number[] = [];
  const position = new Map<number, number>();
  let v = start;
  while (!position.has(v)) {
    position.set(v, order.length);
    order.push(v);
    const deps = (nodes[v] as DagNode).deps ?? [];
    let next = -1;
    for (const d of deps) {
      const j = index.get(d) as number;
      if ((indegree[j] as number) > 0) {
        next = j;
        break;
      }
    }
    v = next;
  }
  const cycle = order.slice(position.get(v) as number).map((i) => (nodes[i] as DagNode).id);
  cycle.reverse();
  const first = cycle[0] as string;
  return new ParlInputError(
    `nodes[${index.get(first)}].deps`,
    (nodes[index.get(first) as number] as DagNode).deps,
    `free of cycles, but node "${first}" lies on the cycle ${[...cycle, first].map((id) => `"${id}"`).join(' → ')}`,
  );
}

/**
 * The staged episode as a DAG (spec §2): main_1 → {sub_1,i} → main_2 → … with node weights equal
 * to steps; a sub-agent with `wait_steps` W (spec §2) weighs W + its steps. Node ids are `main[t]`
 * and `sub[t][i]`. A nested sub-agent entry (spec §5.2) is its own stages' DAG hung below the
 * stage's main node, with ids prefixed by the entry's (`sub[0][1].main[0]`,
 * `sub[0][1].sub[0][2]`), behind a node `sub[t][i].wait` of weight W when it waited; its last
 * nodes stand where a plain entry's one node would. The heaviest path equals the staged critical
 * steps at every depth; the sum of all weights is the total steps plus every W.
 *
 * @example
 * ```ts
 * heaviestPath(stagesToDag(validateStages([{ main_steps: 1, sub_steps: [3, { steps: 3, wait_steps: 3 }] }]))).weight; // 7
 * ```
 */
export function stagesToDag(stages: readonly NormalizedStage[]): DagNode[] {
  const nodes: DagNode[] = [];
  appendStages(stages, '', [], nodes);
  return nodes;
}

/** Append the DAG of `stages` (ids prefixed by `prefix`) after `entry`; returns its last nodes. */
function appendStages(stages: readonly NormalizedStage[], prefix: string, entry: readonly string[], nodes: DagNode[]): string[] {
  let frontier: string[] = [...entry];
  stages.forEach((stage, t) => {
    const main = `${prefix}main[${t}]`;
    nodes.push({ id: main, weight: stage.main, deps: frontier });
    const ends: string[] = [];
    stage.sub.forEach((w, i) => {
      const id = `${prefix}sub[${t}][${i}]`;
      const inner = stage.nested?.[i];
      const wait = stage.wait?.[i] ?? 0;
      if (inner === undefined) {
        nodes.push({ id, weight: wait + w, deps: [main] });
        ends.push(id);
      } else if (inner.length === 0) {
        // A nested entry with no stages did no work: one node of its wait keeps its place.
        nodes.push({ id, weight: wait, deps: [main] });
        ends.push(id);
      } else {
        let entry = main;
        if (wait > 0) {
          entry = `${id}.wait`;
          nodes.push({ id: entry, weight: wait, deps: [main] });
        }
        ends.push(...appendStages(inner, `${id}.`, [entry], nodes));
      }
    });
    frontier = ends.length > 0 ? ends : [main];
  });
  return frontier;
}
