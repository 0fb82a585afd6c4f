import { readTraces, type TraceOptions, type TraceResult } from '../../src/index.js';

/** Run readTraces over in-memory chunks; returns results and the warnings sent to onWarning. */
export async function collect(
  chunks: readonly (string | Uint8Array)[],
  options: TraceOptions = {},
): Promise<{ results: TraceResult[]; warnings: string[] }> {
  const warnings: string[] = [];
  const results: TraceResult[] = [];
  for await (const r of readTraces(chunks, { onWarning: (m) => warnings.push(m), ...options })) results.push(r);
  return { results, warnings };
}

/** The error readTraces throws for the given input (fails the test when none is thrown). */
export async function collectError(chunks: readonly (string | Uint8Array)[], options: TraceOptions = {}): Promise<Error> {
  try {
    await collect(chunks, options);
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected readTraces to throw');
}

/** Split a text into chunks of `size` characters (to exercise chunk boundaries). */
export function chunked(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
