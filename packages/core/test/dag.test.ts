import { describe, expect, it } from 'vitest';
import { ParlInputError, criticalSteps, heaviestPath, stagesToDag, validateStages, type DagNode } from '../src/index.js';
import { messageOf } from './support.js';

describe('heaviestPath', () => {
  it('finds the heaviest path and its nodes', () => {
    // plan → a → merge weighs 1 + 3 + 1 = 5; plan → b → merge weighs 1 + 5 + 1 = 7
    expect(
      heaviestPath([
        { id: 'plan', weight: 1 },
        { id: 'a', weight: 3, deps: ['plan'] },
        { id: 'b', weight: 5, deps: ['plan'] },
        { id: 'merge', weight: 1, deps: ['a', 'b'] },
      ]),
    ).toEqual({ weight: 7, path: ['plan', 'b', 'merge'] });
  });

  it('does not depend on the order nodes are listed in', () => {
    // chains: x(2) → y(2) → z(2) = 6 and w(5) → z = 7
    const nodes: DagNode[] = [
      { id: 'z', weight: 2, deps: ['y', 'w'] },
      { id: 'y', weight: 2, deps: ['x'] },
      { id: 'w', weight: 5 },
      { id: 'x', weight: 2 },
    ];
    expect(heaviestPath(nodes)).toEqual({ weight: 7, path: ['w', 'z'] });
    expect(heaviestPath([...nodes].reverse())).toEqual({ weight: 7, path: ['w', 'z'] });
  });

  it('picks the heaviest of disconnected parts, and handles a lone node and an empty DAG', () => {
    // part 1: a(1) → b(1) = 2; part 2: c(4) alone
    expect(heaviestPath([{ id: 'a', weight: 1 }, { id: 'b', weight: 1, deps: ['a'] }, { id: 'c', weight: 4 }])).toEqual({ weight: 4, path: ['c'] });
    expect(heaviestPath([{ id: 'only', weight: 2.5 }])).toEqual({ weight: 2.5, path: ['only'] });
    expect(heaviestPath([])).toEqual({ weight: 0, path: [] });
  });

  it('a long dependency through a light node beats a heavy short one', () => {
    // s(0) → m1(1) → m2(1) → m3(1) → t(0) = 3 versus s → h(2.5) → t = 2.5
    const nodes: DagNode[] = [
      { id: 's', weight: 0 },
      { id: 'm1', weight: 1, deps: ['s'] },
      { id: 'm2', weight: 1, deps: ['m1'] },
      { id: 'm3', weight: 1, deps: ['m2'] },
      { id: 'h', weight: 2.5, deps: ['s'] },
      { id: 't', weight: 0, deps: ['m3', 'h'] },
    ];
    expect(heaviestPath(nodes)).toEqual({ weight: 3, path: ['s', 'm1', 'm2', 'm3', 't'] });
  });

  it('a cycle is an error naming a node on it', () => {
    const msg = messageOf(() =>
      heaviestPath([
        { id: 'start', weight: 1 },
        { id: 'a', weight: 1, deps: ['start', 'c'] },
        { id: 'b', weight: 1, deps: ['a'] },
        { id: 'c', weight: 1, deps: ['b'] },
        { id: 'after', weight: 1, deps: ['c'] },
      ]),
    );
    expect(msg).toMatch(/^nodes\[\d\]\.deps must be free of cycles, but node "(a|b|c)" lies on the cycle /);
    expect(msg).not.toContain('"start" lies');
    expect(msg).not.toContain('"after" lies');
    for (const id of ['a', 'b', 'c']) expect(msg).toContain(`"${id}"`);
    expect(messageOf(() => heaviestPath([{ id: 'self', weight: 1, deps: ['self'] }]))).toBe(
      'nodes[0].deps must be free of cycles, but node "self" lies on the cycle "self" → "self", got ["self"]',
    );
  });

  it('the cycle names the first node of the cycle in the message and its deps as the value', () => {
    try {
      heaviestPath([
        { id: 'p', weight: 1, deps: ['q'] },
        { id: 'q', weight: 1, deps: ['p'] },
      ]);
      throw new Error('no error');
    } catch (err) {
      const e = err as ParlInputError;
      expect(e).toBeInstanceOf(ParlInputError);
      expect(e.message).toMatch(/^nodes\[(0|1)\]\.deps must be free of cycles, but node "(p|q)" lies on the cycle "(p|q)" → "(p|q)" → "(p|q)"/);
      const index = Number(/^nodes\[(\d)\]/.exec(e.field)?.[1]);
      expect(e.value).toEqual([['q'], ['p']][index]);
    }
  });

  it('unknown dependency, duplicate id, bad weight, bad id, bad node', () => {
    expect(messageOf(() => heaviestPath([{ id: 'a', weight: 1, deps: ['ghost'] }]))).toBe('nodes[0].deps[0] must be the id of a node in the DAG, got "ghost"');
    expect(messageOf(() => heaviestPath([{ id: 'a', weight: 1 }, { id: 'a', weight: 2 }]))).toBe('nodes[1].id must be an id used by no other node, got "a"');
    expect(messageOf(() => heaviestPath([{ id: 'a', weight: -1 }]))).toBe('nodes[0].weight must be a finite number ≥ 0, got -1');
    expect(messageOf(() => heaviestPath([{ id: 'a', weight: Number.NaN }]))).toBe('nodes[0].weight must be a finite number ≥ 0, got NaN');
    expect(messageOf(() => heaviestPath([{ id: '', weight: 1 }]))).toBe('nodes[0].id must be a non-empty string, got ""');
    expect(messageOf(() => heaviestPath([{ id: 3, weight: 1 }] as never))).toBe('nodes[0].id must be a non-empty string, got 3');
    expect(messageOf(() => heaviestPath([null] as never))).toBe('nodes[0] must be an object, got null');
    expect(messageOf(() => heaviestPath([{ id: 'a', weight: 1, deps: 'b' }] as never))).toBe('nodes[0].deps must be an array, got "b"');
    expect(messageOf(() => heaviestPath({} as never))).toBe('nodes must be an array, got {}');
  });
});

describe('stagesToDag', () => {
  it('builds main_1 → {sub_1,i} → main_2 → … whose heaviest path is the critical steps', () => {
    const stages = validateStages([
      { main_steps: 1, sub_steps: [3, 5, 2] },
      { main_steps: 1, sub_steps: [4, 9] },
      { main_steps: 1, sub_steps: [] },
      { main_steps: 2, sub_steps: [1] },
    ]);
    const dag = stagesToDag(stages);
    expect(dag.map((n) => n.id)).toEqual(['main[0]', 'sub[0][0]', 'sub[0][1]', 'sub[0][2]', 'main[1]', 'sub[1][0]', 'sub[1][1]', 'main[2]', 'main[3]', 'sub[3][0]']);
    expect(dag[4]).toEqual({ id: 'main[1]', weight: 1, deps: ['sub[0][0]', 'sub[0][1]', 'sub[0][2]'] });
    expect(dag[8]).toEqual({ id: 'main[3]', weight: 2, deps: ['main[2]'] });
    // (1 + 5) + (1 + 9) + 1 + (2 + 1) = 20
    const hp = heaviestPath(dag);
    expect(hp).toEqual({ weight: 20, path: ['main[0]', 'sub[0][1]', 'main[1]', 'sub[1][1]', 'main[2]', 'main[3]', 'sub[3][0]'] });
    expect(hp.weight).toBe(criticalSteps(stages.map((s) => ({ main_steps: s.main, sub_steps: [...s.sub] }))).critical_steps);
  });

  it('no stages: an empty DAG', () => {
    expect(stagesToDag([])).toEqual([]);
  });
});
