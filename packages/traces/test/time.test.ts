import { describe, expect, it } from 'vitest';
import { msFromIsoOrEpoch, msFromUnixNano } from '../src/internal/time.js';

describe('timestamps', () => {
  it('reads OTLP nanoseconds (strings exactly to the microsecond, numbers too)', () => {
    expect(msFromUnixNano('1735732800123456789')).toBe(1735732800123.456);
    expect(msFromUnixNano(1_500_000)).toBe(1.5);
    expect(msFromUnixNano('12')).toBe(0);
    expect(msFromUnixNano('-5')).toBeUndefined();
    expect(msFromUnixNano('1.5e9')).toBeUndefined();
    expect(msFromUnixNano(undefined)).toBeUndefined();
  });

  it('reads ISO times with or without a zone (no zone = UTC, as LangSmith writes) and epoch ms', () => {
    const utc = Date.UTC(2025, 0, 1, 12, 0, 0, 123);
    expect(msFromIsoOrEpoch('2025-01-01T12:00:00.123Z')).toBe(utc);
    expect(msFromIsoOrEpoch('2025-01-01T12:00:00.123456')).toBe(utc);
    expect(msFromIsoOrEpoch('2025-01-01T14:00:00.123+02:00')).toBe(utc);
    expect(msFromIsoOrEpoch(utc)).toBe(utc);
    expect(msFromIsoOrEpoch('yesterday')).toBeUndefined();
    expect(msFromIsoOrEpoch(Number.NaN)).toBeUndefined();
  });
});
