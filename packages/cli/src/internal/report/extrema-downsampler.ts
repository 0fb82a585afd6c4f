/**
 * Shape-preserving downsampling of a stream of records, in bounded memory: the report of a run of
 * any length draws at most a few thousand points per series, and every peak and trough is kept.
 *
 * Records fall into consecutive buckets. Each bucket keeps its first and last record and, for
 * every numeric field, the records holding the minimum and the maximum. When the buckets reach
 * twice the target count, neighbours are merged (the bucket width doubles), so memory never
 * depends on the number of records and the length of the stream need not be known ahead.
 *
 * Libraries such as `downsample` (LTTB) work on whole arrays held in memory; a stream of a
 * million metrics lines is the case here, so this min/max-bucket form is used instead.
 *
 * @module
 */

/** A record whose numeric fields are downsampled. */
export type NumericRecord = Readonly<Record<string, unknown>>;

/** Options of {@link ExtremaDownsampler}. */
export interface ExtremaDownsamplerOptions {
  /** Buckets kept at least (between this and twice this); default 100. */
  readonly buckets?: number;
}

/** Streams records in order; {@link ExtremaDownsampler.result} gives the kept ones, in order. */
export class ExtremaDownsampler<T extends NumericRecord> {
  private readonly target: number;
  private width = 1;
  private readonly full: T[][] = [];
  private current: T[] = [];
  private currentCount = 0;
  private seen = 0;

  /** @param options - {@link ExtremaDownsamplerOptions} */
  constructor(options: ExtremaDownsamplerOptions = {}) {
    this.target = Math.max(1, Math.floor(options.buckets ?? 100));
  }

  /** Records pushed so far. */
  get count(): number {
    return this.seen;
  }

  /** Add the next record. */
  push(record: T): void {
    this.seen++;
    this.current.push(record);
    this.currentCount++;
    if (this.current.length > 64) this.current = keepExtrema(this.current);
    if (this.currentCount < this.width) return;
    this.full.push(keepExtrema(this.current));
    this.current = [];
    this.currentCount = 0;
    if (this.full.length >= 2 * this.target) this.mergeNeighbours();
  }

  private mergeNeighbours(): void {
    const merged: T[][] = [];
    for (let i = 0; i < this.full.length; i += 2) {
      merged.push(keepExtrema([...(this.full[i] ?? []), ...(this.full[i + 1] ?? [])]));
    }
    this.full.length = 0;
    this.full.push(...merged);
    this.width *= 2;
  }

  /** The kept records in input order: every record while few, else each bucket's extremes. */
  result(): T[] {
    const out: T[] = [];
    for (const bucket of this.full) out.push(...bucket);
    out.push(...keepExtrema(this.current));
    return out;
  }
}

/**
 * The records of one bucket worth keeping, in their order: the first, the last, and for each
 * numeric field the first record with its minimum and the first with its maximum.
 */
function keepExtrema<T extends NumericRecord>(records: readonly T[]): T[] {
  if (records.length <= 2) return [...records];
  const keep = new Set<number>([0, records.length - 1]);
  const first = records[0] as T;
  for (const key of Object.keys(first)) {
    if (typeof first[key] !== 'number') continue;
    let lo = 0;
    let hi = 0;
    for (let i = 1; i < records.length; i++) {
      const v = (records[i] as T)[key] as number;
      if (v < ((records[lo] as T)[key] as number)) lo = i;
      if (v > ((records[hi] as T)[key] as number)) hi = i;
    }
    keep.add(lo);
    keep.add(hi);
  }
  return [...keep].sort((a, b) => a - b).map((i) => records[i] as T);
}
