/**
 * Arrow IPC messages taken apart and put back together, for tests that damage one field of one
 * message on purpose: a stream split into its messages (metadata and body), a record batch's
 * metadata re-encoded by apache-arrow with a field changed, and a file-format file built around a
 * stream (schema message included, as pyarrow and arrow-rs write it) with a footer of our choice.
 */
import { Message, MessageHeader, type Schema } from 'apache-arrow';
import { Footer, FileBlock } from 'apache-arrow/ipc/metadata/file';
import { BufferRegion, FieldNode, RecordBatch as BatchHeader } from 'apache-arrow/ipc/metadata/message';

/** One message of a stream: its metadata (a FlatBuffer) and its body. */
export interface RawMessage {
  metadata: Uint8Array;
  body: Uint8Array;
}

/** The messages of an IPC stream (up to its end-of-stream marker). */
export function splitStream(bytes: Uint8Array): RawMessage[] {
  const buf = Buffer.from(bytes);
  const out: RawMessage[] = [];
  let at = 0;
  while (at + 8 <= buf.length) {
    const length = buf.readUInt32LE(at + 4);
    if (length === 0) break;
    const metadata = buf.subarray(at + 8, at + 8 + length);
    const bodyLength = Message.decode(metadata).bodyLength;
    out.push({ metadata: Uint8Array.from(metadata), body: Uint8Array.from(buf.subarray(at + 8 + length, at + 8 + length + bodyLength)) });
    at += 8 + length + bodyLength;
  }
  return out;
}

function framed(metadata: Uint8Array): Buffer {
  const padded = Math.ceil(metadata.length / 8) * 8;
  const out = Buffer.alloc(8 + padded);
  out.writeUInt32LE(0xffffffff, 0);
  out.writeUInt32LE(padded, 4);
  out.set(metadata, 8);
  return out;
}

/** An IPC stream of `messages`, with its end-of-stream marker. */
export function joinStream(messages: readonly RawMessage[]): Buffer {
  return Buffer.concat([...messages.flatMap((m) => [framed(m.metadata), Buffer.from(m.body)]), Buffer.from('ffffffff00000000', 'hex')]);
}

/** The record batch header fields a test may change. */
export interface BatchEdit {
  length?: number;
  nodes?: (nodes: { length: number; nullCount: number }[]) => { length: number; nullCount: number }[];
  buffers?: (buffers: { offset: number; length: number }[]) => { offset: number; length: number }[];
  compressed?: boolean;
}

/** `message` (a record batch) with its metadata re-encoded after `edit`. */
export function editBatch(message: RawMessage, edit: BatchEdit): RawMessage {
  const decoded = Message.decode(message.metadata);
  if (decoded.headerType !== MessageHeader.RecordBatch) throw new Error('not a record batch');
  const header = decoded.header() as unknown as BatchHeader;
  const nodes = (edit.nodes ?? ((n) => n))(header.nodes.map((n) => ({ length: n.length, nullCount: n.nullCount })));
  const buffers = (edit.buffers ?? ((b) => b))(header.buffers.map((b) => ({ offset: b.offset, length: b.length })));
  const next = new BatchHeader(
    edit.length ?? header.length,
    nodes.map((n) => new FieldNode(n.length, n.nullCount)),
    buffers.map((b) => new BufferRegion(b.offset, b.length)),
    edit.compressed === true ? ({ type: 0, method: 0 } as never) : null,
  );
  return { metadata: Message.encode(Message.from(next as never, message.body.length)), body: message.body };
}

/** The buffers of a record batch message, as its metadata lists them. */
export function batchBuffers(message: RawMessage): { offset: number; length: number }[] {
  const header = Message.decode(message.metadata).header() as unknown as BatchHeader;
  return header.buffers.map((b) => ({ offset: b.offset, length: b.length }));
}

/**
 * The file format around `stream`'s messages, the schema message included; the footer lists the
 * dictionary and record batches where they are and carries `footerSchema` (by default the
 * stream's own schema, decoded).
 */
export function fileAround(stream: Uint8Array, footerSchema?: Schema): Buffer {
  const messages = splitStream(stream);
  const parts: Buffer[] = [Buffer.from('ARROW1\0\0', 'latin1')];
  let at = 8;
  const dictionaries: FileBlock[] = [];
  const batches: FileBlock[] = [];
  let schema: Schema | undefined;
  for (const m of messages) {
    const decoded = Message.decode(m.metadata);
    const head = framed(m.metadata);
    if (decoded.headerType === MessageHeader.Schema) schema = decoded.header() as Schema;
    const block = new FileBlock(head.length, m.body.length, at);
    if (decoded.headerType === MessageHeader.DictionaryBatch) dictionaries.push(block);
    if (decoded.headerType === MessageHeader.RecordBatch) batches.push(block);
    parts.push(head, Buffer.from(m.body));
    at += head.length + m.body.length;
  }
  parts.push(Buffer.from('ffffffff00000000', 'hex'));
  const footer = Buffer.from(Footer.encode(new Footer(footerSchema ?? (schema as Schema), undefined, batches, dictionaries)));
  const length = Buffer.alloc(4);
  length.writeInt32LE(footer.length, 0);
  parts.push(footer, length, Buffer.from('ARROW1', 'latin1'));
  return Buffer.concat(parts);
}

/** Where the metadata of an Arrow file lies: each message's FlatBuffer and, in the file format, the footer. */
export function metadataRanges(bytes: Uint8Array): { start: number; end: number }[] {
  const buf = Buffer.from(bytes);
  const ranges: { start: number; end: number }[] = [];
  const file = buf.subarray(0, 6).toString('latin1') === 'ARROW1';
  const limit = file ? buf.length - 10 - buf.readInt32LE(buf.length - 10) : buf.length;
  let at = file ? 8 : 0;
  while (at + 8 <= limit) {
    const length = buf.readUInt32LE(at + 4);
    if (length === 0) break;
    ranges.push({ start: at + 8, end: at + 8 + length });
    at += 8 + length + Message.decode(buf.subarray(at + 8, at + 8 + length)).bodyLength;
  }
  if (file) ranges.push({ start: limit, end: buf.length - 10 });
  return ranges;
}
