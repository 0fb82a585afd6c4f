import { resolveOptions } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_QUEUE_NAME, DEFAULT_STALLED_AFTER_S, WORKER_OPTIONS } from '../src/index.js';

describe("parl worker's option table", () => {
  it('resolves the flags, with the stall time defaulted and the queue name left to the worker', () => {
    expect(resolveOptions(WORKER_OPTIONS, { queue: 'rediss://:secret@10.0.0.5:6380/1' }, 'flag')).toEqual({ queue: 'rediss://:secret@10.0.0.5:6380/1', stalledAfter: DEFAULT_STALLED_AFTER_S });
    expect(resolveOptions(WORKER_OPTIONS, { queue: 'redis://h', 'queue-name': 'q', threads: '3', 'stalled-after': '2.5' }, 'flag')).toEqual({ queue: 'redis://h', queueName: 'q', threads: 3, stalledAfter: 2.5 });
    expect(WORKER_OPTIONS.queueName.defaultText).toBe(DEFAULT_QUEUE_NAME);
  });

  it('refuses a URL that is not Redis, and bad numbers, naming the flag', () => {
    expect(() => resolveOptions(WORKER_OPTIONS, { queue: 'localhost:6379' }, 'flag')).toThrow('--queue must be a Redis URL');
    expect(() => resolveOptions(WORKER_OPTIONS, { queue: 'redis://h', threads: '0' }, 'flag')).toThrow('--threads must be a decimal integer ≥ 1, got "0"');
    expect(() => resolveOptions(WORKER_OPTIONS, { queue: 'redis://h', 'stalled-after': '-1' }, 'flag')).toThrow('--stalled-after must be a decimal number > 0, got "-1"');
  });
});
