import { optionRows, resolveOptions } from '@parl/core';
import { TRACE_OPTIONS } from '@parl/traces';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SERVE_LOG, DEFAULT_SERVE_OPTIONS, SERVE_OPTIONS } from '../src/options.js';

describe('SERVE_OPTIONS', () => {
  it('defaults to the server defaults, with the CLI default episode log', () => {
    const settings = resolveOptions(SERVE_OPTIONS, {}, 'flag');
    expect(settings).toEqual({
      host: DEFAULT_SERVE_OPTIONS.host,
      port: DEFAULT_SERVE_OPTIONS.port,
      log: DEFAULT_SERVE_LOG,
      fsync: DEFAULT_SERVE_OPTIONS.fsync,
      quietPeriod: DEFAULT_SERVE_OPTIONS.quietPeriodMs,
      traceTimeout: DEFAULT_SERVE_OPTIONS.traceTimeoutMs,
      maxOpenTraces: DEFAULT_SERVE_OPTIONS.maxOpenTraces,
      maxSpansPerTrace: DEFAULT_SERVE_OPTIONS.maxSpansPerTrace,
      maxOpenSpans: DEFAULT_SERVE_OPTIONS.maxOpenSpans,
      maxStreamBuffer: DEFAULT_SERVE_OPTIONS.maxStreamBufferBytes,
      maxEpisodes: DEFAULT_SERVE_OPTIONS.maxEpisodes,
      rolloutAttribute: DEFAULT_SERVE_OPTIONS.rolloutAttribute,
      bodyLimit: DEFAULT_SERVE_OPTIONS.bodyLimit,
      requestTimeout: DEFAULT_SERVE_OPTIONS.requestTimeoutMs,
      maxQueuedBodies: DEFAULT_SERVE_OPTIONS.maxQueuedBodies,
      grouping: 'overlap',
      stepsFrom: 'llm',
      clock: 'count',
    });
  });

  it('checks the port range and the thread count at the flag, naming it', () => {
    expect(() => resolveOptions(SERVE_OPTIONS, { port: '99999' }, 'flag')).toThrow('--port must be a decimal integer from 0 to 65535, got "99999"');
    expect(() => resolveOptions(SERVE_OPTIONS, { 'label-threads': '65' }, 'flag')).toThrow('--label-threads must be a decimal integer from 0 to 64, got "65"');
    expect(resolveOptions(SERVE_OPTIONS, { 'no-log': 'true', port: '0' }, 'flag')).toMatchObject({ noLog: true, port: 0 });
  });

  it("shares parl trace's trace-mapping rows rather than restating them", () => {
    expect(SERVE_OPTIONS.grouping).toBe(TRACE_OPTIONS.grouping);
    expect(SERVE_OPTIONS.stepsFrom).toBe(TRACE_OPTIONS.stepsFrom);
    expect(SERVE_OPTIONS.clock).toBe(TRACE_OPTIONS.clock);
    expect(optionRows(SERVE_OPTIONS).every(([, row]) => row.query === undefined)).toBe(true);
  });
});
