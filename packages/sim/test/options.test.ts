import { ParlInputError, optionRows, resolveOptions } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { getPreset } from '../src/index.js';
import { PRESET_NAMES } from '../src/names.js';
import { DEFAULT_PRESET, SIMULATE_DEFAULTS, SIMULATE_OPTIONS, SWEEP_OPTIONS, TRAIN_OPTIONS } from '../src/options.js';

describe('the option tables of parl simulate and parl train', () => {
  it('resolve to the defaults the commands use when no flag is given', () => {
    expect(resolveOptions(SIMULATE_OPTIONS, {}, 'flag')).toEqual({ policy: 'balanced', episodes: 100, seed: 1 });
    expect(SIMULATE_DEFAULTS).toEqual({ policy: 'balanced', episodes: 100, seed: 1 });
    expect(resolveOptions(TRAIN_OPTIONS, {}, 'flag')).toEqual({ preset: DEFAULT_PRESET });
    expect(getPreset(DEFAULT_PRESET).preset).toBe(DEFAULT_PRESET);
  });

  it('parse flag texts to typed values', () => {
    expect(resolveOptions(SIMULATE_OPTIONS, { episodes: '20', seed: '0', family: 'deep', sample: 'true', env: 'env.json' }, 'flag')).toEqual({
      policy: 'balanced',
      episodes: 20,
      seed: 0,
      family: 'deep',
      sample: true,
      env: 'env.json',
    });
    expect(resolveOptions(TRAIN_OPTIONS, { steps: '400', seed: '7', preset: 'spurious' }, 'flag')).toEqual({ preset: 'spurious', steps: 400, seed: 7 });
  });

  it('refuse a bad value naming the flag, the value and what was expected', () => {
    expect(() => resolveOptions(SIMULATE_OPTIONS, { episodes: '0' }, 'flag')).toThrow('--episodes must be a decimal integer ≥ 1, got "0"');
    expect(() => resolveOptions(SIMULATE_OPTIONS, { family: 'broad' }, 'flag')).toThrow(ParlInputError);
    expect(() => resolveOptions(TRAIN_OPTIONS, { seed: '-1' }, 'flag')).toThrow('--seed must be a decimal integer ≥ 0, got "-1"');
    expect(() => resolveOptions(TRAIN_OPTIONS, { stpes: '4' }, 'flag')).toThrow(/did you mean --steps/);
  });

  it('list every preset in the help of --preset, and never restate a default in a help text', () => {
    for (const name of PRESET_NAMES) expect(TRAIN_OPTIONS.preset.help).toContain(name);
    const rows = [...optionRows(SIMULATE_OPTIONS), ...optionRows(TRAIN_OPTIONS)];
    for (const [, row] of rows) expect(row.help).not.toMatch(/\(default|default:|default is/i);
  });
});

describe('the option table of parl sweep', () => {
  it('shares the queue rows of @parl/io (the same URL check and queue name as parl worker)', () => {
    expect(resolveOptions(SWEEP_OPTIONS, { grid: 'g.json', queue: 'redis://10.0.0.5:6379/2', 'queue-name': 'mine', threads: '4' }, 'flag')).toEqual({
      grid: 'g.json',
      queue: 'redis://10.0.0.5:6379/2',
      queueName: 'mine',
      threads: 4,
    });
    expect(() => resolveOptions(SWEEP_OPTIONS, { grid: 'g.json', queue: 'http://10.0.0.5' }, 'flag')).toThrow('--queue must be a Redis URL: redis://HOST[:PORT][/DB] or rediss://…, got "http://10.0.0.5"');
    expect(resolveOptions(SWEEP_OPTIONS, { grid: 'g.json' }, 'flag')).toEqual({ grid: 'g.json' });
  });
});
