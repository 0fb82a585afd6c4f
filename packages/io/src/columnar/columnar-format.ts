/**
 * Which record files are columnar, told by their name: Parquet (`.parquet`), Arrow IPC files
 * (`.arrow`, `.feather`) and Arrow IPC streams (`.arrows`). Kept apart from the readers so that
 * the JSONL start-up path loads no columnar library.
 *
 * @module
 */

/** The columnar record formats. */
export type ColumnarFormat = 'parquet' | 'arrow' | 'arrows';

/** File name endings and the format each one means. */
const ENDINGS: readonly (readonly [string, ColumnarFormat])[] = [
  ['.parquet', 'parquet'],
  ['.arrow', 'arrow'],
  ['.feather', 'arrow'],
  ['.arrows', 'arrows'],
];

/** The columnar format a path names by its ending, or undefined for any other file (JSON, JSONL, CSV). */
export function columnarFormatOf(path: string | undefined): ColumnarFormat | undefined {
  if (path === undefined) return undefined;
  const lower = path.toLowerCase();
  for (const [ending, format] of ENDINGS) if (lower.endsWith(ending)) return format;
  return undefined;
}
