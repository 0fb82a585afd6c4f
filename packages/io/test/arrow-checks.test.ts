/**
 * Each check made on an Arrow IPC file before apache-arrow reads it (src/columnar/arrow-*.ts),
 * on a file damaged in exactly one place: the run ends in one named line (the message, the
 * part, the value found and what was expected) with the previous output untouched. And files
 * laid out as other writers lay them out (the schema message inside the file format, as pyarrow
 * and arrow-rs write it; a stream written by arrow-rs through parquet-wasm) are read whole.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Field, Float64, Message, MessageHeader, Schema, Struct, Table, tableFromArrays, tableToIPC, type DataType } from 'apache-arrow';
import * as parquet from 'parquet-wasm';
import { afterEach, describe, expect, it } from 'vitest';
import { batchBuffers, editBatch, fileAround, joinStream, splitStream, type RawMessage } from './support/arrow-messages.js';
import { columnarBytes, isNamedInputError, labelFile, outputsIn, recordsTable } from './support/columnar-files.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parl-io-checks-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'out.arrows'), 'the previous output');
  return dir;
}

async function expectNamed(format: 'arrow' | 'arrows', bytes: Uint8Array, message: RegExp): Promise<void> {
  const dir = freshDir();
  const before = outputsIn(dir);
  const end = await labelFile(dir, format, bytes);
  if (end.ok) throw new Error(`labelled ${end.rows} rows of a damaged ${format} file`);
  expect(isNamedInputError(end.error), end.error.message).toBe(true);
  expect(end.error.message).toMatch(message);
  expect(outputsIn(dir)).toEqual(before);
}

/** The stream's messages and the index of its first record batch. */
function streamParts(): { messages: RawMessage[]; first: number } {
  const messages = splitStream(columnarBytes(recordsTable(), 'arrows'));
  const first = messages.findIndex((m) => Message.decode(m.metadata).headerType === MessageHeader.RecordBatch);
  return { messages, first };
}

function withBatch(edit: (m: RawMessage) => RawMessage): Buffer {
  const { messages, first } = streamParts();
  messages[first] = edit(messages[first] as RawMessage);
  return joinStream(messages);
}

describe('Arrow record batches checked against their schema and body', () => {
  it('reads the stream as split and joined again (the helpers are right)', async () => {
    const end = await labelFile(freshDir(), 'arrows', withBatch((m) => m));
    expect(end).toEqual({ ok: true, rows: 120 });
  });

  it('names a buffer that lies past the end of the body', async () => {
    const bytes = withBatch((m) => editBatch(m, { buffers: (b) => b.map((r, i) => (i === 3 ? { offset: m.body.length + 64, length: r.length } : r)) }));
    await expectNamed('arrows', bytes, /message \d at byte \d+: column "r_perf" data \(bytes \d+ to \d+\) must be inside the message body, got "a \d+-byte body"/);
  });

  it('names a row count its buffers cannot hold (nothing allocated for it)', async () => {
    const bytes = withBatch((m) => editBatch(m, { length: 1000, nodes: (n) => n.map((x) => ({ ...x, length: 1000 })) }));
    await expectNamed('arrows', bytes, /column "id" dictionary indices length must be at least 4000 bytes for its rows, got 160/);
  });

  it('names a row count beyond 8 per body byte before reading any column', async () => {
    const bytes = withBatch((m) => editBatch(m, { length: 2 ** 40, nodes: (n) => n.map((x) => ({ ...x, length: 2 ** 40 })) }));
    await expectNamed('arrows', bytes, /length must be at most \d+ rows \(8 per body byte \+ 65536\), got 1099511627776/);
  });

  it('names a column shorter than the batch', async () => {
    const bytes = withBatch((m) => editBatch(m, { nodes: (n) => n.map((x, i) => (i === 2 ? { ...x, length: 39 } : x)) }));
    await expectNamed('arrows', bytes, /column "num_subagents" length must be the batch's 40 rows, got 39/);
  });

  it('names a null count its validity bitmap does not hold', async () => {
    const bytes = withBatch((m) => editBatch(m, { nodes: (n) => n.map((x, i) => (i === 1 ? { ...x, nullCount: 3 } : x)) }));
    await expectNamed('arrows', bytes, /column "r_perf" validity bitmap length must be at least 5 bytes for its rows, got 0/);
  });

  it('names a dictionary index outside the dictionary', async () => {
    const bytes = withBatch((m) => {
      const indices = batchBuffers(m)[1] as { offset: number };
      const body = Buffer.from(m.body);
      body.writeInt32LE(5000, indices.offset);
      return { metadata: m.metadata, body };
    });
    await expectNamed('arrows', bytes, /column "id" dictionary index of row 0 must be below the dictionary's \d+ entries, got 5000/);
  });

  it('names a missing buffer and a buffer too many', async () => {
    await expectNamed('arrows', withBatch((m) => editBatch(m, { buffers: (b) => b.slice(0, -1) })), /buffer count must be more than 5: column "num_subagents" data has no buffer, got 5/);
    await expectNamed('arrows', withBatch((m) => editBatch(m, { buffers: (b) => [...b, { offset: 0, length: 0 }] })), /buffer count must be 6, as many as the schema's arrays take, got 7/);
  });

  it('names a compressed body (no codec here) instead of failing inside apache-arrow', async () => {
    await expectNamed('arrows', withBatch((m) => editBatch(m, { compressed: true })), /compression must be uncompressed/);
  });

  it('names a schema message that does not come first', async () => {
    const { messages, first } = streamParts();
    const reordered = [messages[first] as RawMessage, ...messages.filter((_, i) => i !== first)];
    await expectNamed('arrows', joinStream(reordered), /message 1 at byte 0 type must be the schema \(the first message of a stream\), got "RecordBatch"/);
  });
});

describe('Arrow message metadata checked as a bounded FlatBuffer', () => {
  it('names a schema nested 70 levels deep (more than 64 tables) before apache-arrow recurses into it', async () => {
    let type: DataType = new Float64();
    for (let depth = 0; depth < 70; depth++) type = new Struct([new Field(`level${depth}`, type, true)]);
    const schema = new Schema([new Field('r_perf', type, true)]);
    const stream = joinStream([{ metadata: Message.encode(Message.from(schema)), body: new Uint8Array(0) }]);
    await expectNamed('arrows', stream, /message 1 at byte 0 metadata Message\.header\.fields\[0\](\.children\[0\])+ must be nested at most 64 tables deep, got "deeper"/);
  });

  it('reads a schema nested 40 levels deep', async () => {
    let type: DataType = new Float64();
    for (let depth = 0; depth < 40; depth++) type = new Struct([new Field(`level${depth}`, type, true)]);
    const schema = new Schema([new Field('nested', type, true)]);
    const stream = joinStream([{ metadata: Message.encode(Message.from(schema)), body: new Uint8Array(0) }]);
    const end = await labelFile(freshDir(), 'arrows', stream);
    expect(end).toEqual({ ok: true, rows: 0 });
  });
});

describe('Arrow files as other writers lay them out', () => {
  it('reads a file whose stream part starts with the schema message (pyarrow, arrow-rs)', async () => {
    const end = await labelFile(freshDir(), 'arrow', fileAround(columnarBytes(recordsTable(), 'arrows')));
    expect(end).toEqual({ ok: true, rows: 120 });
  });

  it('reads files of no rows: a zero-row batch, or no batch at all (the schema only in the footer)', async () => {
    const zeroRows = tableFromArrays({ r_perf: new Float64Array(0) });
    for (const table of [zeroRows, new Table(zeroRows.schema)]) {
      for (const format of ['arrow', 'arrows'] as const) {
        const end = await labelFile(freshDir(), format, tableToIPC(table, format === 'arrow' ? 'file' : 'stream'));
        expect(end).toEqual({ ok: true, rows: 0 });
      }
    }
  });

  it('names a footer whose schema is not the stream schema', async () => {
    const other = new Schema([new Field('r_perf', new Float64(), true)]);
    await expectNamed('arrow', fileAround(columnarBytes(recordsTable(), 'arrows'), other), /footer schema must be the stream's schema \(id: Dictionary<Int32, Utf8>/);
  });

  it('reads a stream written by arrow-rs (parquet-wasm) and one written by apache-arrow alike', async () => {
    const parquetBytes = columnarBytes(recordsTable(), 'parquet');
    const rust = parquet.readParquet(parquetBytes).intoIPCStream();
    const end = await labelFile(freshDir(), 'arrows', rust);
    expect(end).toEqual({ ok: true, rows: 120 });
    const js = await labelFile(freshDir(), 'arrows', tableToIPC(recordsTable(), 'stream'));
    expect(js).toEqual({ ok: true, rows: 120 });
  });
});
