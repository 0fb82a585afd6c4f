/**
 * Byte mutations of a file for the columnar fuzz and its regression tests: flip bits of a few
 * bytes, overwrite a 32-bit field, or cut the file. Positions are taken modulo the file's length,
 * so that a mutation found by the fuzz (fast-check prints it) replays on the same file.
 */
import fc from 'fast-check';

/** One mutation, as fast-check prints it in a counterexample. */
export type ByteMutation =
  | { readonly kind: 'flip'; readonly at: number; readonly mask: number; readonly count: number }
  | { readonly kind: 'word'; readonly at: number; readonly value: number }
  | { readonly kind: 'cut'; readonly at: number };

/** Any mutation: a flip of 1-8 bytes with one mask, a 32-bit field set to 0xFFFFFFFF, 0 or any value, or a cut. */
export const byteMutation: fc.Arbitrary<ByteMutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), mask: fc.integer({ min: 1, max: 255 }), count: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('word' as const), at: fc.nat(), value: fc.oneof(fc.constant(0xffffffff), fc.constant(0), fc.nat()) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
);

/** A copy of `bytes` with `m` applied. */
export function mutate(bytes: Uint8Array, m: ByteMutation): Buffer {
  const out = Buffer.from(bytes);
  const at = m.at % out.length;
  if (m.kind === 'cut') return out.subarray(0, at);
  if (m.kind === 'word') {
    if (at + 4 <= out.length) out.writeUInt32LE(m.value >>> 0, at);
    return out;
  }
  for (let i = at; i < Math.min(out.length, at + m.count); i++) out[i] = (out[i] as number) ^ m.mask;
  return out;
}
