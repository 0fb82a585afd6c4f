/**
 * The footer of an Arrow IPC file (`ARROW1`, padding, the stream, the footer, its int32 length,
 * `ARROW1`), read and checked as a FlatBuffer of the Arrow `Footer` shape before apache-arrow
 * decodes it. Its blocks are then compared with the messages found (`arrow-framing.ts`): they are
 * never followed.
 *
 * @module
 */
import type { FileHandle } from 'node:fs/promises';
import type { Schema } from 'apache-arrow';
import { Footer } from 'apache-arrow/ipc/metadata/file';
import { arrowDamage, MAX_METADATA_BYTES, readAt } from './arrow-bytes.js';
import { checkFlatBuffer, FlatBufferDamage } from './flatbuffer-check.js';
import { FOOTER } from './arrow-metadata-shapes.js';

const MAGIC = Buffer.from('ARROW1');

/** Where a message lies, as a footer block says it: its first byte, its prefix and metadata, its body. */
export interface FooterBlock {
  /** The message's first byte in the file. */
  readonly offset: number;
  /** Its prefix and metadata, in bytes: the body starts at `offset + metaDataLength`. */
  readonly metaDataLength: number;
  /** Its body, in bytes. */
  readonly bodyLength: number;
}

/** A checked footer. */
export interface ArrowFooter {
  /** The footer's first byte: the stream part ends here. */
  readonly start: number;
  /** The schema the footer carries. */
  readonly schema: Schema;
  /** Where it says the dictionary batches are. */
  readonly dictionaries: readonly FooterBlock[];
  /** Where it says the record batches are. */
  readonly recordBatches: readonly FooterBlock[];
}

/**
 * Read and check the footer of the Arrow file `path` of `size` bytes (it starts with `ARROW1`).
 *
 * @throws {@link @parl/core!ParlInputError} naming what is wrong (the closing magic string, the footer length, a field of the footer)
 */
export async function readFooter(handle: FileHandle, path: string, size: number): Promise<ArrowFooter> {
  if (size < 8 + 4 + 6) throw arrowDamage(path, 'the file', `${size} bytes`, "at least 18 bytes: the file format's magic strings, a footer and its length");
  const tail = await readAt(handle, size - 10, 10);
  if (!tail.subarray(4).equals(MAGIC)) throw arrowDamage(path, `the last 6 bytes`, JSON.stringify(tail.subarray(4).toString('latin1')), 'the closing ARROW1 magic string (the file is cut or damaged)');
  const footerLength = tail.readInt32LE(0);
  const start = size - 10 - footerLength;
  if (footerLength <= 0 || start < 8) throw arrowDamage(path, 'the footer length', footerLength, `between 1 and ${size - 18} (the bytes between the magic strings)`);
  if (footerLength > MAX_METADATA_BYTES) throw arrowDamage(path, 'the footer length', footerLength, `at most ${MAX_METADATA_BYTES} bytes`, 'PARL_ERR_LIMIT');
  const bytes = await readAt(handle, start, footerLength);
  try {
    checkFlatBuffer(bytes, FOOTER);
  } catch (err) {
    if (err instanceof FlatBufferDamage) throw arrowDamage(path, `the footer's ${err.path}`, err.found, err.expected);
    throw err;
  }
  try {
    const footer = Footer.decode(bytes);
    const blocks = (list: Iterable<FooterBlock>): FooterBlock[] => [...list].map(({ offset, metaDataLength, bodyLength }) => ({ offset, metaDataLength, bodyLength }));
    return { start, schema: footer.schema, dictionaries: blocks(footer.dictionaryBatches()), recordBatches: blocks(footer.recordBatches()) };
  } catch (err) {
    throw arrowDamage(path, 'the footer', err instanceof Error ? err.message : String(err), 'a footer apache-arrow decodes');
  }
}
