import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ParlInputError, criticalStepsBatch, heaviestPath, stagesToDag, validateStages, type DagNode } from '@parl/core';
import { denseDags, heaviestPathKernel, heaviestPathOp, initBackend, tf } from '../src/index.js';
import { f32 } from './arbitraries.js';
import { maxRelativeError, TEST_BACKENDS, TOLERANCE } from './backends.js';


/** A random DAG: node i may depend only on nodes before it (in a shuffled id order). */
const dag = fc.integer({ min: 0, max: 9 }).chain((n) =>
  fc
    .record({
      weights: fc.array(f32(0, 20), { minLength: n, maxLength: n }),
      edges: fc.array(fc.array(fc.boolean(), { minLength: n, maxLength: n }), { minLength: n, maxLength: n }),
    })
    .map(({ weights, edges }): DagNode[] =>
      weights.map((weight, i) => ({
        id: `n${i}`,
        weight,
        deps: (edges[i] as boolean[]).flatMap((on, j) => (on && j < i ? [`n${j}`] : [])),
      })),
    ),
);

describe.each(TEST_BACKENDS)('heaviestPathKernel on %s', (backend) => {
  beforeAll(async () => {
    await initBackend({ force: backend });
  });

  it('equals @parl/core heaviestPath on random DAGs (relative error ≤ 1e-5)', () => {
    fc.assert(
      fc.property(fc.array(dag, { minLength: 1, maxLength: 6 }), (dags) => {
        const dense = denseDags(dags);
        const expected = dags.map((d) => heaviestPath(d).weight);
        const actual = heaviestPathKernel(dense, { output: 'array' });
        expect(maxRelativeError(actual.weight, expected)).toBeLessThanOrEqual(TOLERANCE);
      }),
      { numRuns: 40 },
    );
  });

  it('agrees with the staged critical steps on staged episodes (spec §2, DAG form)', () => {
    const stages = validateStages([
      { main_steps: 1, sub_steps: [3, 5, 2] },
      { main_steps: 0.5, sub_steps: [] },
      { main_steps: 1, sub_steps: [4, 9] },
    ]);
    const out = heaviestPathKernel(denseDags([stagesToDag(stages)]), { output: 'array' });
    const staged = criticalStepsBatch({ batch: 1, stages: 3, width: 3, subSteps: new Float32Array([3, 5, 2, 0, 0, 0, 4, 9, 0]), groupSizes: [3, 0, 2], mainSteps: [1, 0.5, 1] });
    expect(out.weight[0]).toBe(staged.critical_steps[0]);
    expect(out.weight[0]).toBe(16.5);
  });

  it('returns each node’s finish time; the spec example weighs 7', () => {
    const out = heaviestPathKernel(
      denseDags([
        [
          { id: 'plan', weight: 1 },
          { id: 'a', weight: 3, deps: ['plan'] },
          { id: 'b', weight: 5, deps: ['plan'] },
          { id: 'merge', weight: 1, deps: ['a', 'b'] },
        ],
      ]),
      { output: 'array' },
    );
    expect(out.weight[0]).toBe(7);
    expect(Array.from(out.finish)).toEqual([1, 4, 6, 7]);
  });

  it('rejects cycles, non-0/1 adjacency, bad weights and shapes, naming them', () => {
    const cyclic = { batch: 2, nodes: 2, weights: [1, 1, 1, 1], adjacency: [0, 1, 0, 0, 0, 1, 1, 0] };
    expect(() => heaviestPathKernel(cyclic)).toThrow('adjacency[1] must be the adjacency of a DAG (free of cycles), got "a graph where node 0 lies on a cycle"');
    const zeroCycle = { batch: 1, nodes: 1, weights: [0], adjacency: [1] };
    expect(() => heaviestPathKernel(zeroCycle)).toThrow(ParlInputError);
    expect(() => heaviestPathKernel({ batch: 1, nodes: 2, weights: [1, 1], adjacency: [0, 2, 0, 0] })).toThrow('adjacency[0, 0, 1] must be 0 or 1');
    expect(() => heaviestPathKernel({ batch: 1, nodes: 2, weights: [1, -1], adjacency: [0, 0, 0, 0] })).toThrow('weights[0, 1] must be a finite number ≥ 0, got -1');
    expect(() => heaviestPathKernel({ batch: 1, nodes: 2, weights: [1, 1], adjacency: [0, 0, 0] })).toThrow('adjacency.length must be 4 (shape [1, 2, 2]), got 3');
    expect(() => denseDags([[{ id: 'a', weight: 1, deps: ['x'] }]])).toThrow('dags[0][0].deps[0] must be the id of a node in the DAG, got "x"');
  });

  it('leaks no tensor, with or without the cycle check, and on errors', () => {
    const before = tf.memory().numTensors;
    const input = denseDags([[{ id: 'a', weight: 1 }, { id: 'b', weight: 2, deps: ['a'] }]]);
    heaviestPathKernel(input, { output: 'array' });
    heaviestPathKernel(input, { output: 'array', checkCycles: false });
    const out = heaviestPathKernel(input);
    out.weight.dispose();
    out.finish.dispose();
    expect(() => heaviestPathKernel({ batch: 1, nodes: 2, weights: [1, 1], adjacency: [0, 1, 1, 0] })).toThrow(ParlInputError);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('differentiates the heaviest-path weight: 1 on the path’s nodes', () => {
    const before = tf.memory().numTensors;
    const d = denseDags([
      [
        { id: 'plan', weight: 1 },
        { id: 'a', weight: 3, deps: ['plan'] },
        { id: 'b', weight: 5, deps: ['plan'] },
        { id: 'merge', weight: 1, deps: ['a', 'b'] },
      ],
    ]);
    const w = tf.tensor2d(d.weights, [1, 4]);
    const adj = tf.tensor3d(d.adjacency, [1, 4, 4]);
    const g = tf.grad((x: tf.Tensor) => tf.sum(heaviestPathOp(x as tf.Tensor2D, adj).weight))(w);
    expect(Array.from(g.dataSync())).toEqual([1, 0, 1, 1]);
    for (const t of [g, w, adj]) t.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });
});
