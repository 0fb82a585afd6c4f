/**
 * `SERVE_OPTIONS` is the one declaration of the server's options: the flags `parl serve` reads and
 * the options `createParlServer` takes are its rows, with its defaults and its checks (the port's
 * range is checked by its row, for a flag and for a library call alike), and their types are
 * derived from it.
 */
import { optionRows, resolveOptions } from '@parl/core';
import { TRACE_OPTIONS } from '@parl/traces';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { SERVE_OPTIONS } from '../src/options.js';
import { resolveServeOptions, type ResolvedServeOptions, type ServeOptions } from '../src/resolve-options.js';

describe('SERVE_OPTIONS', () => {
  it('gives flags and library calls the same defaults, the stated memory bounds among them', () => {
    const flags = resolveOptions(SERVE_OPTIONS, {}, 'flag') as Record<string, unknown>;
    const library = resolveServeOptions({}) as unknown as Record<string, unknown>;
    for (const [key, row] of optionRows(SERVE_OPTIONS)) {
      if (row.default !== undefined) expect([key, library[key]]).toEqual([key, flags[key]]);
    }
    expect(library).toMatchObject({ maxOpenSpans: 100_000, maxQueuedBodyBytes: 64 * 1024 * 1024, maxStreamBufferBytes: 1024 * 1024, maxStreamBufferTotalBytes: 8 * 1024 * 1024, headersTimeoutMs: 10_000 });
    // A library call keeps no episode log unless given one.
    expect(library['logFile']).toBeUndefined();
  });

  it('checks the port range and the thread count by their rows, for a flag and for a library call', () => {
    expect(() => resolveOptions(SERVE_OPTIONS, { port: '99999' }, 'flag')).toThrow('--port must be a decimal integer from 0 to 65535, got "99999"');
    expect(() => resolveServeOptions({ port: 99999 })).toThrow('options.port must be a decimal integer from 0 to 65535, got "99999"');
    expect(() => resolveOptions(SERVE_OPTIONS, { 'label-threads': '65' }, 'flag')).toThrow('--label-threads must be a decimal integer from 0 to 64, got "65"');
    expect(() => resolveServeOptions({ labelThreads: 1.5 })).toThrow('options.labelThreads must be a decimal integer from 0 to 64, got "1.5"');
    expect(() => resolveServeOptions({ fsync: 'sometimes' as never })).toThrow('options.fsync must be one of always, interval, never, got "sometimes"');
    expect(resolveOptions(SERVE_OPTIONS, { 'no-log': 'true', port: '0' }, 'flag')).toMatchObject({ noLog: true, port: 0 });
  });

  it('takes the headers timeout from a shorter request timeout, and refuses a longer one', () => {
    expect(resolveServeOptions({ requestTimeoutMs: 4000 }).headersTimeoutMs).toBe(4000);
    expect(() => resolveServeOptions({ requestTimeoutMs: 4000, headersTimeoutMs: 5000 })).toThrow('options.headersTimeoutMs must be at most requestTimeoutMs (4000), got 5000');
    expect(resolveServeOptions({ noLog: true, logFile: 'x.jsonl' }).logFile).toBeUndefined();
  });

  it('derives the option types from the table', () => {
    expectTypeOf<ServeOptions['port']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ServeOptions['fsync']>().toEqualTypeOf<'always' | 'interval' | 'never' | undefined>();
    expectTypeOf<ResolvedServeOptions['maxOpenSpans']>().toEqualTypeOf<number>();
    expectTypeOf<ResolvedServeOptions['logFile']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<keyof ServeOptions>().toEqualTypeOf<keyof typeof SERVE_OPTIONS | 'onWarning'>();
  });

  it("shares parl trace's trace-mapping rows rather than restating them", () => {
    expect(SERVE_OPTIONS.grouping).toBe(TRACE_OPTIONS.grouping);
    expect(SERVE_OPTIONS.stepsFrom).toBe(TRACE_OPTIONS.stepsFrom);
    expect(SERVE_OPTIONS.clock).toBe(TRACE_OPTIONS.clock);
    expect(optionRows(SERVE_OPTIONS).every(([, row]) => row.query === undefined)).toBe(true);
  });
});
