import { describe, expect, it } from 'vitest';
import { ParlInputError } from '@parl/core';
import { resolveSweep, resolveTrainingConfig } from '../src/index.js';
import { MAX_SWEEP_RUNS } from '../src/sweeps/sweep-spec.js';

function inputError(run: () => unknown): ParlInputError {
  try {
    run();
  } catch (err) {
    if (err instanceof ParlInputError) return err;
    throw err;
  }
  throw new Error('no error thrown');
}

describe('grid files a careless or hostile user writes (issue 24, items 14 and 15)', () => {
  it('refuses a cross product above MAX_SWEEP_RUNS by count, before expanding anything', () => {
    const values = Array.from({ length: 100 }, (_, i) => 80 + i);
    const grid = { 'env.budget': values, 'optimizer.learningRate': values.map((v) => v / 10000), 'optimizer.updateEpochs': [1, 2, 3] };
    const err = inputError(() => resolveSweep({ grid }));
    expect(err.field).toBe('grid');
    expect(err.message).toContain(`at most ${MAX_SWEEP_RUNS} runs`);
    expect(err.value).toBe(30000);
    expect(err.message).toBe(`grid must be at most ${MAX_SWEEP_RUNS} runs per grid file (grid points × samples × seeds, here 100 values of env.budget × 100 values of optimizer.learningRate × 3 values of optimizer.updateEpochs × 1 seeds): split the sweep or narrow its lists, got 30000`);
  });

  it('refuses huge samples by count (no V8 out-of-memory after minutes)', () => {
    const err = inputError(() => resolveSweep({ samples: 1e12, ranges: { 'env.budget': { min: 80, max: 160 } } }));
    expect(err.field).toBe('grid');
    expect(err.value).toBe(1e12);
    expect(err.message).toContain('1000000000000 samples');
  });

  it('names a bad value in the last key before crossing the others', () => {
    const big = Array.from({ length: 50 }, (_, i) => 80 + i);
    const err = inputError(() => resolveSweep({ grid: { 'env.budget': big, 'optimizer.learningRate': big.map(() => 0.01), lambda1: ['constant:0', 'linear:0.3:0'] } }));
    expect(err.field).toBe('grid["lambda1"][1]');
  });

  it('names a bad range bound before drawing samples', () => {
    const err = inputError(() => resolveSweep({ samples: 3, ranges: { 'env.budget': { min: -5, max: 10, integer: true } } }));
    expect(err.field).toBe('ranges["env.budget"]');
  });

  for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'env.__proto__', 'env.constructor', 'reward.toString', 'valueOf']) {
    it(`gives the named unknown-path error for the grid key ${key}`, () => {
      const parsed = JSON.parse(`{"grid": {${JSON.stringify(key)}: [1]}}`) as unknown;
      const err = inputError(() => resolveSweep(parsed));
      expect(err.field).toBe(`grid[${JSON.stringify(key)}]`);
      expect(err.expected).toMatch(/a training-config path/);
      const ranged = JSON.parse(`{"samples": 2, "ranges": {${JSON.stringify(key)}: [1, 2]}}`) as unknown;
      expect(inputError(() => resolveSweep(ranged)).field).toBe(`ranges[${JSON.stringify(key)}]`);
    });
  }

  it('refuses a range whose min is above its max, naming min', () => {
    const err = inputError(() => resolveSweep({ samples: 2, ranges: { 'env.budget': { min: 160, max: 80 } } }));
    expect(err.field).toBe('ranges["env.budget"].min');
    expect(err.message).toMatch(/min is above max/);
  });

  it('suggests the closest known path for a misspelt grid key', () => {
    expect(inputError(() => resolveSweep({ grid: { 'env.famly': ['wide'] } })).expected).toMatch(/did you mean env\.family\?/);
    expect(inputError(() => resolveSweep({ grid: { optimiser: [1] } })).expected).toMatch(/did you mean optimizer\?/);
    expect(inputError(() => resolveSweep({ grid: { lamda1: ['constant:0'] } })).expected).toMatch(/did you mean lambda1\?/);
  });
});

describe('unknown config keys name the key and suggest the closest (issue 24, first hour)', () => {
  it('env.famly', () => {
    const err = inputError(() => resolveTrainingConfig({ env: { famly: 'deep' } }));
    expect(err.field).toBe('env.famly');
    expect(err.message).toMatch(/^env\.famly must be a known setting of env \(did you mean env\.family\?; known: .*family.*\), got "famly"$/);
  });

  it('optimiser', () => {
    const err = inputError(() => resolveTrainingConfig({ optimiser: { learningRate: 0.1 } }));
    expect(err.field).toBe('optimiser');
    expect(err.message).toMatch(/did you mean optimizer\?/);
    expect(err.message).toMatch(/got "optimiser"$/);
  });

  it('a key far from every setting gets the list and no guess', () => {
    const err = inputError(() => resolveTrainingConfig({ reward: { zzzzzzzz: 1 } }));
    expect(err.field).toBe('reward.zzzzzzzz');
    expect(err.message).not.toMatch(/did you mean/);
    expect(err.message).toMatch(/known: lambda1, lambda2/);
  });

  it('__proto__ in a config is an unknown setting, not a prototype change', () => {
    const err = inputError(() => resolveTrainingConfig(JSON.parse('{"__proto__": {"steps": 1}}')));
    expect(err.field).toBe('__proto__');
  });
});
