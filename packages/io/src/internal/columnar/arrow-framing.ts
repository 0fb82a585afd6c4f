/**
 * The messages of an Arrow IPC file, each checked before apache-arrow sees it, handed on as the
 * bytes of an IPC stream. apache-arrow trusts all of an Arrow file: it reads a cut stream as if it
 * ended there, spins on some tiny files, allocates whatever a flipped length field says, follows
 * a damaged footer block to where nothing is (and never returns), and loops or runs out of memory
 * on a damaged vector length inside a message's metadata. Here, one message at a time:
 *
 * - its metadata length and body length must fit in the bytes left (metadata at most
 *   {@link MAX_METADATA_BYTES});
 * - its metadata must be a sound FlatBuffer of the Arrow `Message` shape (`flatbuffer-check.ts`:
 *   every offset, vector and string inside it, linear work) before apache-arrow decodes it;
 * - the first message is the schema, the others dictionary or record batches whose nodes and
 *   buffers fit the schema and the body (`arrow-batch-check.ts`);
 * - a stream ends with its end-of-stream marker and nothing after it;
 * - a file (`ARROW1` … footer … `ARROW1`) has a sound footer whose schema is the stream's and
 *   whose blocks are exactly the messages found, in order.
 *
 * The file format is then read as the IPC stream it holds (apache-arrow's stream reader), so that
 * no footer offset is ever followed. Memory: one message's metadata and body at a time (a body is
 * at most the file's size), which apache-arrow's batch then views without copying.
 *
 * @module
 */
import type { FileHandle } from 'node:fs/promises';
import { Message, MessageHeader, MetadataVersion, Schema, util, type DataType, type Field } from 'apache-arrow';
import { checkBatch, BatchDamage, type BatchHeaderLike } from './arrow-batch-check.js';
import { checkFlatBuffer, FlatBufferDamage } from './flatbuffer-check.js';
import { MESSAGE } from './arrow-metadata-shapes.js';
import { readFooter, type ArrowFooter, type FooterBlock } from './arrow-footer.js';
import { arrowDamage, MAX_METADATA_BYTES, readAt } from './arrow-bytes.js';

const CONTINUATION = 0xffffffff;
const MAGIC = Buffer.from('ARROW1');
/** The end-of-stream marker: a continuation and a zero length. */
const END_OF_STREAM = Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);

/** Where the messages lie: bytes `[start, limit)`; and the footer, in the file format (whose stream may end without its end-of-stream marker). */
interface MessageRange {
  readonly start: number;
  readonly limit: number;
  readonly footer: ArrowFooter | undefined;
}

async function messageRange(handle: FileHandle, path: string, size: number): Promise<MessageRange> {
  const head = await readAt(handle, 0, Math.min(size, 8));
  if (!(head.length >= 6 && head.subarray(0, 6).equals(MAGIC))) return { start: 0, limit: size, footer: undefined };
  const footer = await readFooter(handle, path, size);
  return { start: 8, limit: footer.start, footer };
}

/** A message's metadata with its prefix (continuation, length), padded to 8 bytes as the format aligns it. */
function framed(metadata: Uint8Array): Buffer {
  const padded = Math.ceil(metadata.length / 8) * 8;
  const out = Buffer.alloc(8 + padded);
  out.writeUInt32LE(CONTINUATION, 0);
  out.writeUInt32LE(padded, 4);
  out.set(metadata, 8);
  return out;
}

/** What the walk knows of the stream so far. */
interface StreamState {
  schema: Schema | undefined;
  readonly dictionaryLengths: Map<number, number>;
  readonly dictionaryBlocks: FooterBlock[];
  readonly recordBatchBlocks: FooterBlock[];
}

/** Decode a checked message; a value apache-arrow refuses (a length beyond 2^53, an unknown type) is named. */
function decoded<T>(path: string, where: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw arrowDamage(path, `${where} metadata`, err instanceof Error ? err.message : String(err), 'metadata apache-arrow decodes');
  }
}

/** Check one message (its metadata checked as a FlatBuffer already) against the stream so far. */
function checkMessage(path: string, where: string, message: Message, body: Uint8Array, state: StreamState): void {
  const version = message.version;
  if (version !== MetadataVersion.V4 && version !== MetadataVersion.V5) {
    throw arrowDamage(path, `${where} metadata version`, version, `${MetadataVersion.V4} or ${MetadataVersion.V5} (Arrow format 0.15 or later)`);
  }
  const named = (err: unknown): never => {
    if (err instanceof BatchDamage) throw arrowDamage(path, `${where}: ${err.field}`, err.value, err.expected, err.field === 'length' ? 'PARL_ERR_LIMIT' : 'PARL_ERR_PARSE');
    throw err;
  };
  if (message.headerType === MessageHeader.Schema) {
    if (state.schema !== undefined) throw arrowDamage(path, `${where} type`, 'a second schema', 'a dictionary or record batch');
    if (body.length !== 0) throw arrowDamage(path, `${where} body length`, body.length, '0 for a schema');
    state.schema = decoded(path, where, () => message.header() as Schema);
    return;
  }
  const schema = state.schema;
  if (schema === undefined) throw arrowDamage(path, `${where} type`, MessageHeader[message.headerType] ?? message.headerType, 'the schema (the first message of a stream)');
  if (message.headerType === MessageHeader.RecordBatch) {
    const header = decoded(path, where, () => message.header() as unknown as BatchHeaderLike);
    try {
      checkBatch(schema.fields as Field[], header, body, state.dictionaryLengths, version);
    } catch (err) {
      named(err);
    }
    return;
  }
  if (message.headerType === MessageHeader.DictionaryBatch) {
    const header = decoded(path, where, () => message.header() as unknown as { id: number; isDelta: boolean; data: BatchHeaderLike });
    const type = schema.dictionaries.get(header.id) as DataType | undefined;
    if (type === undefined) throw arrowDamage(path, `${where} dictionary id`, header.id, `one the schema declares (${[...schema.dictionaries.keys()].join(', ') || 'none'})`);
    try {
      const rows = checkBatch([type], header.data, body, state.dictionaryLengths, version);
      state.dictionaryLengths.set(header.id, (header.isDelta ? (state.dictionaryLengths.get(header.id) ?? 0) : 0) + rows);
    } catch (err) {
      named(err);
    }
    return;
  }
  throw arrowDamage(path, `${where} type`, MessageHeader[message.headerType] ?? message.headerType, 'Schema, DictionaryBatch or RecordBatch');
}

/** The footer's blocks must be the messages found, in order, and its schema the stream's. */
function checkAgainstFooter(path: string, footer: ArrowFooter, state: StreamState): void {
  const compare = (kind: string, found: readonly FooterBlock[], listed: readonly FooterBlock[]): void => {
    for (let i = 0; i < Math.max(found.length, listed.length); i++) {
      const f = found[i];
      const l = listed[i];
      if (l === undefined) throw arrowDamage(path, `footer ${kind} blocks`, listed.length, `${found.length}, one per ${kind} in the file`);
      if (f === undefined) throw arrowDamage(path, `footer ${kind} block ${i + 1}`, `offset ${l.offset}`, `one of the ${found.length} ${kind} messages in the file`);
      for (const key of ['offset', 'metaDataLength', 'bodyLength'] as const) {
        if (f[key] !== l[key]) throw arrowDamage(path, `footer ${kind} block ${i + 1} ${key}`, l[key], `${f[key]}, as the ${kind} message ${i + 1} found at byte ${f.offset} has it`);
      }
    }
  };
  compare('dictionary', state.dictionaryBlocks, footer.dictionaries);
  compare('record batch', state.recordBatchBlocks, footer.recordBatches);
  const stream: Schema | undefined = state.schema;
  const fields = (schema: Schema): string => schema.fields.map((f) => `${f.name}: ${String(f.type)}`).join(', ');
  const same: boolean = stream === undefined || util.compareSchemas(footer.schema, stream);
  if (!same && stream !== undefined) throw arrowDamage(path, 'footer schema', fields(footer.schema), `the stream's schema (${fields(stream)})`);
}

/**
 * The bytes of the IPC stream held by the Arrow file `path` (stream or file format), one checked
 * message at a time; the schema comes first, the end-of-stream marker last.
 *
 * @throws {@link @parl/core!ParlInputError} (`PARL_ERR_PARSE`, or `PARL_ERR_LIMIT` for a bound) naming
 * the message, the field, the value found and what was expected
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs';
 * import { open } from 'node:fs/promises';
 * import { RecordBatchReader, tableFromArrays, tableToIPC } from 'apache-arrow';
 *
 * writeFileSync('episodes.arrow', tableToIPC(tableFromArrays({ r_perf: Float64Array.from([0.5, 1]) }), 'file'));
 * const handle = await open('episodes.arrow');
 * const { size } = await handle.stat();
 * const reader = await RecordBatchReader.from(checkedArrowStream(handle, 'episodes.arrow', size));
 * let rows = 0;
 * for await (const batch of reader) rows += batch.numRows;
 * rows; // 2
 * await handle.close();
 * ```
 */
export async function* checkedArrowStream(handle: FileHandle, path: string, size: number): AsyncGenerator<Uint8Array> {
  const { start, limit, footer } = await messageRange(handle, path, size);
  const state: StreamState = { schema: undefined, dictionaryLengths: new Map(), dictionaryBlocks: [], recordBatchBlocks: [] };
  let at = start;
  // apache-arrow's own file writer keeps the schema in the footer only: the stream then starts
  // with the footer's (checked) schema, as a message of its own.
  const schemaFromFooter = (schema: Schema): Buffer => {
    state.schema = schema;
    return framed(Message.encode(Message.from(schema)));
  };
  for (let n = 1; ; n++) {
    if (at === limit && footer !== undefined) {
      if (n === 1) yield schemaFromFooter(footer.schema);
      break;
    }
    const left = limit - at;
    if (left === 0) {
      if (n === 1) throw arrowDamage(path, 'the file', `${size} bytes`, 'a schema message at least');
      throw arrowDamage(path, `the bytes after message ${n - 1} (byte ${at})`, 'the end of the file', 'another message or the end-of-stream marker (the stream is cut)');
    }
    if (left < 4) throw arrowDamage(path, `message ${n} at byte ${at} length`, `${left} bytes`, 'a 4-byte length (the file is cut)');
    const head = await readAt(handle, at, Math.min(8, left));
    let length = head.readUInt32LE(0);
    let headBytes = 4;
    if (length === CONTINUATION) {
      if (left < 8) throw arrowDamage(path, `message ${n} at byte ${at} length`, `${left - 4} bytes after the continuation marker`, 'a 4-byte length (the file is cut)');
      length = head.readUInt32LE(4);
      headBytes = 8;
    }
    if (length === 0) {
      if (n === 1 && footer === undefined) throw arrowDamage(path, `message 1 at byte ${at}`, 'the end-of-stream marker', 'the schema');
      if (n === 1 && footer !== undefined) yield schemaFromFooter(footer.schema);
      at += headBytes;
      break;
    }
    const where = `message ${n} at byte ${at}`;
    if (length > MAX_METADATA_BYTES) throw arrowDamage(path, `${where} metadata length`, length, `at most ${MAX_METADATA_BYTES} bytes`, 'PARL_ERR_LIMIT');
    if (length > left - headBytes) throw arrowDamage(path, `${where} metadata length`, length, `at most ${left - headBytes} (the bytes left before ${footer === undefined ? 'the end of the file' : 'the footer'})`);
    const metadata = await readAt(handle, at + headBytes, length);
    try {
      checkFlatBuffer(metadata, MESSAGE);
    } catch (err) {
      if (err instanceof FlatBufferDamage) throw arrowDamage(path, `${where} metadata ${err.path}`, err.found, err.expected);
      throw err;
    }
    const message = decoded(path, where, () => Message.decode(metadata));
    const bodyStart = at + headBytes + length;
    const bodyLength = message.bodyLength;
    if (!(bodyLength >= 0 && bodyLength <= limit - bodyStart)) {
      throw arrowDamage(path, `${where} body length`, bodyLength, `at most ${limit - bodyStart} (the bytes left before ${footer === undefined ? 'the end of the file' : 'the footer'})`);
    }
    const body = await readAt(handle, bodyStart, bodyLength);
    if (n === 1 && footer !== undefined && message.headerType !== MessageHeader.Schema) yield schemaFromFooter(footer.schema);
    checkMessage(path, where, message, body, state);
    const block: FooterBlock = { offset: at, metaDataLength: headBytes + length, bodyLength };
    if (message.headerType === MessageHeader.DictionaryBatch) state.dictionaryBlocks.push(block);
    if (message.headerType === MessageHeader.RecordBatch) state.recordBatchBlocks.push(block);
    yield framed(metadata);
    if (body.length > 0) yield body;
    at = bodyStart + bodyLength;
  }
  if (footer === undefined && at !== size) throw arrowDamage(path, `the ${size - at} bytes after the end-of-stream marker at byte ${at - 8}`, `${size - at} bytes`, 'nothing: a stream ends with its marker');
  if (footer !== undefined) {
    if (at !== limit) throw arrowDamage(path, `the bytes between the end-of-stream marker and the footer`, `${limit - at} bytes`, 'none');
    checkAgainstFooter(path, footer, state);
  }
  yield END_OF_STREAM;
}
