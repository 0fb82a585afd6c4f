/**
 * The heaviest (critical) path of B DAGs of up to V nodes at once (spec §2, DAG form), by
 * max-plus relaxation over dense weights `[B, V]` and adjacency `[B, V, V]`.
 *
 * @module
 */
import * as tf from '@tensorflow/tfjs-core';
import { ParlInputError, type DagNode } from '@parl/core';
import { repeatLast } from './broadcast.js';
import { enforceChecks, finiteNonNegative, type InputCheck } from './input-checks.js';
import { outputMode, toArrays, type KernelOptions } from './output.js';
import { requireDimension, toFloat32Tensor, type NumericInput } from './tensor-input.js';

/** B DAGs of up to V nodes each, stored densely. Pad smaller DAGs with weight-0 nodes without edges. */
export interface DagBatchInput {
  /** B, the number of DAGs. */
  readonly batch: number;
  /** V, the node capacity per DAG. */
  readonly nodes: number;
  /** Node weights (steps), `[B, V]`, finite ≥ 0. */
  readonly weights: NumericInput;
  /**
   * `[B, V, V]`: `adjacency[b, u, v]` is 1 when node v depends on node u (edge u → v), else 0.
   * The graph must be acyclic.
   */
  readonly adjacency: NumericInput;
}

/** Heaviest paths as tensors. */
export type HeaviestPathTensors = {
  /** Weight of the heaviest path of each DAG (its critical steps), float32 `[B]`; 0 for V = 0. */
  readonly weight: tf.Tensor1D;
  /** Finish time of each node: the heaviest path that ends at it, float32 `[B, V]`. */
  readonly finish: tf.Tensor2D;
};

/** {@link HeaviestPathTensors} downloaded. */
export interface HeaviestPathArrays {
  /** Heaviest-path weight per DAG, length B. */
  readonly weight: Float32Array;
  /** Finish time per node, row-major `[B, V]`. */
  readonly finish: Float32Array;
}

/** Options of {@link heaviestPathKernel}. */
export interface HeaviestPathOptions extends KernelOptions {
  /**
   * Check that every graph is acyclic (default true), by a unit-weight depth relaxation run
   * beside the weight relaxation: it doubles the work, so turn it off for graphs known to be DAGs.
   * A cyclic graph left unchecked gives a meaningless weight.
   */
  readonly checkCycles?: boolean;
}

/** One max-plus relaxation step: w[v] + max(0, max_u adj[u, v]·finish[u]). */
function relax(weights: tf.Tensor2D, adjacency: tf.Tensor3D, finish: tf.Tensor2D): tf.Tensor2D {
  const V = weights.shape[1];
  // adjacency[b, u, v] · finish[b, u], then the max over u.
  const incoming = tf.max(tf.mul(adjacency, repeatLast(finish, V)), 1);
  return tf.add(weights, incoming) as tf.Tensor2D;
}

/**
 * The heaviest path by max-plus relaxation as differentiable tensor ops (no validation, no
 * download), for `tf.grad`. Starting from finish = weights, V − 1 relaxations
 * finish[v] ← w[v] + max_u adj[u, v]·finish[u] reach every path of up to V nodes. Work is
 * O(B·V³); memory O(B·V²) outside of `tf.grad`. The gradient of the weight with respect to the
 * node weights is 1 on the nodes of the heaviest path.
 *
 * @param weights - `[B, V]`, finite ≥ 0
 * @param adjacency - `[B, V, V]` of 0/1, acyclic
 */
export function heaviestPathOp(weights: tf.Tensor2D, adjacency: tf.Tensor3D): HeaviestPathTensors {
  return tf.tidy(() => {
    const [B, V] = weights.shape;
    if (V === 0 || B === 0) return { weight: tf.zeros([B], 'float32') as tf.Tensor1D, finish: tf.zeros([B, V], 'float32') as tf.Tensor2D };
    let finish = tf.clone(weights) as tf.Tensor2D;
    for (let i = 1; i < V; i++) {
      const next = tf.tidy(() => relax(weights, adjacency, finish));
      finish.dispose();
      finish = next;
    }
    return { weight: tf.max(finish, 1) as tf.Tensor1D, finish };
  });
}

/** Per DAG, the largest node depth (nodes on the longest chain) after V unit relaxations; > V means a cycle. */
function depths(adjacency: tf.Tensor3D): tf.Tensor2D {
  const [B, V] = adjacency.shape;
  const ones = tf.ones([B, V], 'float32') as tf.Tensor2D;
  let depth = ones;
  for (let i = 0; i < V; i++) {
    const next = tf.tidy(() => relax(ones, adjacency, depth));
    if (depth !== ones) depth.dispose();
    depth = next;
  }
  return depth;
}

/**
 * The heaviest path of B DAGs: its weight (the DAG's critical steps) and every node's finish
 * time, as tensors (default) or typed arrays (`{ output: 'array' }`). Equals `@parl/core`'s
 * `heaviestPath` on the same graphs to float32 precision (tested on every backend). Nothing
 * leaks.
 *
 * @throws `ParlInputError` (`@parl/core`) for a wrong shape, a bad weight, an adjacency entry other than
 *   0 or 1, or a cycle (`adjacency[b]`, naming a node on it)
 *
 * @example
 * ```ts
 * // plan → {a, b} → merge, weights 1, 3, 5, 1
 * heaviestPathKernel({ batch: 1, nodes: 4, ...denseDags([[
 *   { id: 'plan', weight: 1 }, { id: 'a', weight: 3, deps: ['plan'] },
 *   { id: 'b', weight: 5, deps: ['plan'] }, { id: 'merge', weight: 1, deps: ['a', 'b'] },
 * ]]) }, { output: 'array' }).weight; // Float32Array [7]
 * ```
 */
export function heaviestPathKernel(input: DagBatchInput, options?: HeaviestPathOptions & { readonly output?: 'tensor' }): HeaviestPathTensors;
export function heaviestPathKernel(input: DagBatchInput, options: HeaviestPathOptions & { readonly output: 'array' }): HeaviestPathArrays;
export function heaviestPathKernel(input: DagBatchInput, options?: HeaviestPathOptions): HeaviestPathTensors | HeaviestPathArrays;
export function heaviestPathKernel(input: DagBatchInput, options: HeaviestPathOptions = {}): HeaviestPathTensors | HeaviestPathArrays {
  const mode = outputMode(options);
  const B = requireDimension(input.batch, 'batch');
  const V = requireDimension(input.nodes, 'nodes');
  const result = tf.tidy(() => {
    const weights = toFloat32Tensor(input.weights, 'weights', [B, V]) as tf.Tensor2D;
    const adjacency = toFloat32Tensor(input.adjacency, 'adjacency', [B, V, V]) as tf.Tensor3D;
    const checks: InputCheck[] = [
      { field: 'weights', shape: [B, V], ok: finiteNonNegative(weights), values: input.weights, expected: 'a finite number ≥ 0' },
    ];
    // Fast path for the large [B, V, V] input: min ≥ 0, max ≤ 1 and Σ a(1 − a) = 0 hold iff
    // every entry is 0 or 1 (a NaN makes the sum NaN).
    const stats = adjacency.size === 0 ? [] : [tf.min(adjacency), tf.max(adjacency), tf.sum(tf.mul(adjacency, tf.sub(1, adjacency)))];
    const [min, max, spread] = enforceChecks(checks, stats);
    if (min !== undefined && !(min >= 0 && (max as number) <= 1 && spread === 0)) {
      enforceChecks([
        {
          field: 'adjacency',
          shape: [B, V, V],
          ok: tf.logicalOr(tf.equal(adjacency, 0), tf.equal(adjacency, 1)),
          values: input.adjacency,
          expected: '0 or 1 (1 when the second node depends on the first)',
        },
      ]);
    }
    if (options.checkCycles !== false && V > 0 && B > 0) {
      const depth = depths(adjacency);
      const deepest = tf.max(depth).dataSync()[0] as number;
      if (deepest > V) {
        const data = depth.dataSync();
        let flat = 0;
        while ((data[flat] as number) <= V) flat++;
        const b = Math.floor(flat / V);
        throw new ParlInputError(`adjacency[${b}]`, `a graph where node ${flat % V} lies on a cycle`, 'the adjacency of a DAG (free of cycles)');
      }
    }
    return heaviestPathOp(weights, adjacency);
  });
  return mode === 'array' ? (toArrays(result) as unknown as HeaviestPathArrays) : result;
}

/** Dense DAG arrays for {@link heaviestPathKernel}, built from `@parl/core` DAG node lists. */
export interface DenseDags {
  /** B. */
  readonly batch: number;
  /** V. */
  readonly nodes: number;
  /** `[B, V]` weights, zero-padded. */
  readonly weights: Float32Array;
  /** `[B, V, V]` 0/1 adjacency, `[b, u, v] = 1` when v depends on u. */
  readonly adjacency: Float32Array;
}

/**
 * Pack B DAGs given as `@parl/core` `DagNode` lists into dense arrays of V nodes
 * (default: the largest DAG's size). Node i of a list becomes index i.
 *
 * @throws `ParlInputError` (`@parl/core`) for a DAG larger than V, a duplicate id or an unknown dependency
 */
export function denseDags(dags: readonly (readonly DagNode[])[], nodes?: number): DenseDags {
  const B = dags.length;
  const V = nodes ?? dags.reduce((m, d) => Math.max(m, d.length), 0);
  requireDimension(V, 'nodes');
  const weights = new Float32Array(B * V);
  const adjacency = new Float32Array(B * V * V);
  dags.forEach((dag, b) => {
    if (dag.length > V) throw new ParlInputError(`dags[${b}].length`, dag.length, `at most ${V} nodes`);
    const index = new Map<string, number>();
    dag.forEach((node, i) => {
      if (index.has(node.id)) throw new ParlInputError(`dags[${b}][${i}].id`, node.id, 'an id used by no other node');
      index.set(node.id, i);
      weights[b * V + i] = node.weight;
    });
    dag.forEach((node, v) => {
      (node.deps ?? []).forEach((dep, d) => {
        const u = index.get(dep);
        if (u === undefined) throw new ParlInputError(`dags[${b}][${v}].deps[${d}]`, dep, 'the id of a node in the DAG');
        adjacency[(b * V + u) * V + v] = 1;
      });
    });
  });
  return { batch: B, nodes: V, weights, adjacency };
}
