/**
 * The check of one record batch or dictionary batch of an Arrow IPC file against its schema,
 * before apache-arrow builds vectors from it. apache-arrow's loader takes the field nodes and
 * buffers a batch's metadata lists as they come: a buffer past the end of the body becomes a short
 * or empty array, a row count larger than its buffers reads `undefined` (then `NaN`), string and
 * list offsets are followed wherever they point, and a row count of 2^50 is allocated for. Here
 * every node and buffer is taken in the order the loader takes them (the Arrow columnar format's
 * order: depth first, validity bitmap, then offsets or type ids, then data) and held to what the
 * format requires: each buffer inside the body and 8-byte aligned, each buffer large enough for
 * its node's rows, null counts matching the validity bitmaps, offsets non-decreasing and inside
 * the data or child they index, union type ids declared, dictionary indices inside a dictionary
 * sent earlier, and as many nodes and buffers as the schema takes. The work is linear in the
 * body's size.
 *
 * @module
 */
import { DataType, Field, MetadataVersion, UnionMode, type Dictionary, type Int, type Union } from 'apache-arrow';

/** A field node of a batch's metadata: rows and nulls of one array. */
interface NodeLike {
  readonly length: number;
  readonly nullCount: number;
}

/** A buffer of a batch's metadata: where it lies in the body. */
interface BufferLike {
  readonly offset: number;
  readonly length: number;
}

/** The part of a decoded `RecordBatch` header (apache-arrow's metadata class) this check reads. */
export interface BatchHeaderLike {
  /** Rows of the batch. */
  readonly length: number;
  /** One per array of the schema, depth first. */
  readonly nodes: readonly NodeLike[];
  /** The arrays' buffers, in the loader's order. */
  readonly buffers: readonly BufferLike[];
  /** The body's compression, null when uncompressed. */
  readonly compression: unknown;
  /** Data buffers of each view column (`Utf8View`, `BinaryView`), in order. */
  readonly variadicBufferCounts: readonly number[];
}

/**
 * Rows a batch may declare beyond 8 per body byte: a batch whose columns are all of the null type
 * (or that has none) holds no bytes for its rows. Every other column holds at least one bit a row,
 * so its rows are bounded by the body.
 */
export const MAX_ROWS_WITHOUT_DATA = 65_536;

/** What is wrong with a batch: the field (a path such as `column "stages" [child 0] offsets`), the value found and what was expected. */
export class BatchDamage extends Error {
  /** Which part of the batch, e.g. `column "r_perf" data buffer`. */
  readonly field: string;
  /** What was found. */
  readonly value: unknown;
  /** What the format requires. */
  readonly expected: string;

  /**
   * @param field - the part of the batch
   * @param value - what was found
   * @param expected - what the format requires
   */
  constructor(field: string, value: unknown, expected: string) {
    super(`${field} must be ${expected}, got ${String(value)}`);
    this.name = 'BatchDamage';
    this.field = field;
    this.value = value;
    this.expected = expected;
  }
}

/** Bytes a value of a fixed-width type takes, or undefined for a type of another layout. */
function fixedWidth(type: DataType, path: string): number | undefined {
  const bad = (what: string, value: unknown, expected: string): never => {
    throw new BatchDamage(`${path} type's ${what}`, value, expected);
  };
  if (DataType.isInt(type)) return [8, 16, 32, 64].includes(type.bitWidth) ? type.bitWidth / 8 : bad('bit width', type.bitWidth, '8, 16, 32 or 64');
  if (DataType.isFloat(type)) return ([2, 4, 8] as const)[type.precision] ?? bad('precision', type.precision, '0 (half), 1 (single) or 2 (double)');
  if (DataType.isDecimal(type)) return [32, 64, 128, 256].includes(type.bitWidth) ? type.bitWidth / 8 : bad('bit width', type.bitWidth, '32, 64, 128 or 256');
  if (DataType.isDate(type)) return ([4, 8] as const)[type.unit] ?? bad('unit', type.unit, '0 (day) or 1 (millisecond)');
  if (DataType.isTime(type)) return type.bitWidth === 32 || type.bitWidth === 64 ? type.bitWidth / 8 : bad('bit width', type.bitWidth, '32 or 64');
  if (DataType.isTimestamp(type) || DataType.isDuration(type)) return 8;
  if (DataType.isInterval(type)) return ([4, 8, 16] as const)[type.unit] ?? bad('unit', type.unit, '0, 1 or 2');
  if (DataType.isFixedSizeBinary(type)) return type.byteWidth > 0 ? type.byteWidth : bad('byte width', type.byteWidth, 'at least 1');
  return undefined;
}

/** Takes a batch's nodes and buffers in the loader's order, checking each. */
class BatchWalker {
  private node = 0;
  private buffer = 0;
  private variadic = 0;

  constructor(
    private readonly header: BatchHeaderLike,
    private readonly body: Uint8Array,
    private readonly dictionaryLengths: ReadonlyMap<number, number>,
    private readonly version: MetadataVersion,
  ) {}

  private nextNode(path: string): NodeLike {
    const node = this.header.nodes[this.node++];
    if (node === undefined) throw new BatchDamage('field node count', this.header.nodes.length, `more than ${this.header.nodes.length}: ${path} has no field node`);
    if (!(node.length >= 0)) throw new BatchDamage(`${path} length`, node.length, 'a row count ≥ 0');
    if (!(node.nullCount >= 0 && node.nullCount <= node.length)) throw new BatchDamage(`${path} null count`, node.nullCount, `between 0 and its length ${node.length}`);
    return node;
  }

  /** The next buffer, inside the body; `least` bytes at least. */
  private nextBuffer(path: string, least: number): Uint8Array {
    const region = this.header.buffers[this.buffer++];
    if (region === undefined) throw new BatchDamage('buffer count', this.header.buffers.length, `more than ${this.header.buffers.length}: ${path} has no buffer`);
    const { offset, length } = region;
    if (!(offset >= 0 && length >= 0 && offset + length <= this.body.length)) {
      throw new BatchDamage(`${path} (bytes ${offset} to ${offset + length})`, `a ${this.body.length}-byte body`, 'inside the message body');
    }
    if (offset % 8 !== 0) throw new BatchDamage(`${path} offset`, offset, 'a multiple of 8 (the format aligns buffers)');
    if (length < least) throw new BatchDamage(`${path} length`, length, `at least ${least} bytes for its rows`);
    return this.body.subarray(offset, offset + length);
  }

  private validity(path: string, node: NodeLike): Uint8Array | undefined {
    const bitmap = this.nextBuffer(`${path} validity bitmap`, node.nullCount > 0 ? Math.ceil(node.length / 8) : 0);
    if (node.nullCount === 0) return undefined;
    let valid = 0;
    for (let i = 0; i < node.length; i++) valid += ((bitmap[i >> 3] as number) >> (i & 7)) & 1;
    if (node.length - valid !== node.nullCount) throw new BatchDamage(`${path} null count`, node.nullCount, `${node.length - valid}, the nulls its validity bitmap marks`);
    return bitmap;
  }

  /** Offsets (32-bit, or 64-bit when `wide`) of `length` rows: non-decreasing from ≥ 0; returns the last one. */
  private offsets(path: string, length: number, wide: boolean): number {
    const width = wide ? 8 : 4;
    const bytes = this.nextBuffer(`${path} offsets`, length === 0 ? 0 : (length + 1) * width);
    if (length === 0) return 0;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const at = (i: number): number => (wide ? Number(view.getBigInt64(i * 8, true)) : view.getInt32(i * 4, true));
    let previous = at(0);
    if (previous < 0) throw new BatchDamage(`${path} offsets[0]`, previous, '≥ 0');
    for (let i = 1; i <= length; i++) {
      const next = at(i);
      if (next < previous) throw new BatchDamage(`${path} offsets[${i}]`, next, `≥ the offset before it (${previous})`);
      previous = next;
    }
    return previous;
  }

  /** Check the array of `type` at `path`; returns its length. */
  visit(type: DataType, path: string): number {
    const node = this.nextNode(path);
    const { length } = node;
    if (DataType.isNull(type)) return length;
    if (DataType.isUnion(type)) return this.union(type, path, node);
    const validity = this.validity(path, node);
    const width = fixedWidth(type, path);
    if (width !== undefined) {
      this.nextBuffer(`${path} data`, length * width);
    } else if (DataType.isBool(type)) {
      this.nextBuffer(`${path} data`, Math.ceil(length / 8));
    } else if (DataType.isUtf8(type) || DataType.isBinary(type) || DataType.isLargeUtf8(type) || DataType.isLargeBinary(type)) {
      const end = this.offsets(path, length, DataType.isLargeUtf8(type) || DataType.isLargeBinary(type));
      this.nextBuffer(`${path} data`, end);
    } else if (DataType.isUtf8View(type) || DataType.isBinaryView(type)) {
      this.views(path, length);
    } else if (DataType.isList(type) || DataType.isLargeList(type) || DataType.isMap(type)) {
      const end = this.offsets(path, length, DataType.isLargeList(type));
      const childLength = this.visit(this.only(type, path), `${path} [child 0]`);
      if (end > childLength) throw new BatchDamage(`${path} offsets[${length}]`, end, `at most its child's length ${childLength}`);
    } else if (DataType.isFixedSizeList(type)) {
      const childLength = this.visit(this.only(type, path), `${path} [child 0]`);
      if (childLength < length * type.listSize) throw new BatchDamage(`${path} [child 0] length`, childLength, `at least ${length} × ${type.listSize}`);
    } else if (DataType.isStruct(type)) {
      type.children.forEach((child: Field, i: number) => {
        const childLength = this.visit(child.type, `${path} [child ${i}]`);
        if (childLength < length) throw new BatchDamage(`${path} [child ${i}] length`, childLength, `at least its parent's length ${length}`);
      });
    } else if (DataType.isDictionary(type)) {
      this.dictionaryIndices(type, path, node, validity);
    } else {
      throw new BatchDamage(`${path} type`, String(type), 'a type apache-arrow reads');
    }
    return length;
  }

  private only(type: DataType, path: string): DataType {
    const child = (type.children as Field[] | undefined)?.[0];
    if (child === undefined) throw new BatchDamage(`${path} type`, String(type), 'a nested type with a child field');
    return child.type;
  }

  private views(path: string, length: number): void {
    const views = this.nextBuffer(`${path} views`, length * 16);
    const count = this.header.variadicBufferCounts[this.variadic++] ?? 0;
    const buffers = Array.from({ length: count }, (_, i) => this.nextBuffer(`${path} variadic buffer ${i}`, 0));
    const view = new DataView(views.buffer, views.byteOffset, views.byteLength);
    for (let i = 0; i < length; i++) {
      const size = view.getInt32(i * 16, true);
      if (size < 0) throw new BatchDamage(`${path} view ${i} length`, size, '≥ 0');
      if (size <= 12) continue;
      const index = view.getInt32(i * 16 + 8, true);
      const offset = view.getInt32(i * 16 + 12, true);
      const target = buffers[index];
      if (target === undefined) throw new BatchDamage(`${path} view ${i} buffer index`, index, `below the ${count} variadic buffers`);
      if (offset < 0 || offset + size > target.length) throw new BatchDamage(`${path} view ${i} (bytes ${offset} to ${offset + size})`, `a ${target.length}-byte buffer`, 'inside its variadic buffer');
    }
  }

  private union(type: Union, path: string, node: NodeLike): number {
    const { length } = node;
    // Before version 5 a union had a validity bitmap too (apache-arrow reads and drops it).
    if (this.version < MetadataVersion.V5) this.nextBuffer(`${path} validity bitmap`, 0);
    const typeIds = this.nextBuffer(`${path} type ids`, length);
    const dense = type.mode === UnionMode.Dense;
    const offsets = dense ? this.nextBuffer(`${path} offsets`, length * 4) : undefined;
    const declared = Array.from(type.typeIds as ArrayLike<number>);
    const childLengths = type.children.map((child: Field, i: number) => this.visit(child.type, `${path} [child ${i}]`));
    if (declared.length !== childLengths.length) throw new BatchDamage(`${path} type ids`, declared.length, `one per child (${childLengths.length})`);
    const offsetView = offsets === undefined ? undefined : new DataView(offsets.buffer, offsets.byteOffset, offsets.byteLength);
    for (let i = 0; i < length; i++) {
      const id = (typeIds[i] as number) << 24 >> 24;
      const child = declared.indexOf(id);
      if (child < 0) throw new BatchDamage(`${path} type id of row ${i}`, id, `one of ${declared.join(', ')}`);
      const at = offsetView === undefined ? i : offsetView.getInt32(i * 4, true);
      if (at < 0 || at >= (childLengths[child] as number)) throw new BatchDamage(`${path} row ${i}`, at, `an index into child ${child} (length ${childLengths[child]})`);
    }
    return length;
  }

  private dictionaryIndices(type: Dictionary, path: string, node: NodeLike, validity: Uint8Array | undefined): void {
    const indices = type.indices as Int;
    const width = fixedWidth(indices, `${path} dictionary index`) as number;
    const data = this.nextBuffer(`${path} dictionary indices`, node.length * width);
    const size = this.dictionaryLengths.get(type.id);
    if (size === undefined) throw new BatchDamage(`${path} dictionary id`, type.id, 'the id of a dictionary batch sent before this batch');
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const read = (i: number): number => {
      switch (width) {
        case 1:
          return indices.isSigned ? view.getInt8(i) : view.getUint8(i);
        case 2:
          return indices.isSigned ? view.getInt16(i * 2, true) : view.getUint16(i * 2, true);
        case 4:
          return indices.isSigned ? view.getInt32(i * 4, true) : view.getUint32(i * 4, true);
        default:
          return Number(indices.isSigned ? view.getBigInt64(i * 8, true) : view.getBigUint64(i * 8, true));
      }
    };
    for (let i = 0; i < node.length; i++) {
      if (validity !== undefined && (((validity[i >> 3] as number) >> (i & 7)) & 1) === 0) continue;
      const index = read(i);
      if (index < 0 || index >= size) throw new BatchDamage(`${path} dictionary index of row ${i}`, index, `below the dictionary's ${size} entries`);
    }
  }

  /** All nodes, buffers and variadic counts taken: none left over. */
  finish(): void {
    const { nodes, buffers, variadicBufferCounts } = this.header;
    if (this.node !== nodes.length) throw new BatchDamage('field node count', nodes.length, `${this.node}, as many as the schema's arrays`);
    if (this.buffer !== buffers.length) throw new BatchDamage('buffer count', buffers.length, `${this.buffer}, as many as the schema's arrays take`);
    if (this.variadic < variadicBufferCounts.length) throw new BatchDamage('variadic buffer count list length', variadicBufferCounts.length, `${this.variadic}, one per view column`);
  }
}

/**
 * Check a record batch (`columns`: the schema's fields) or a dictionary batch (`columns`: the one
 * value type of its dictionary) whose metadata is `header` and body `body`. Returns its rows.
 *
 * @throws {@link BatchDamage} naming the first node or buffer that the format does not allow
 */
export function checkBatch(
  columns: readonly (Field | DataType)[],
  header: BatchHeaderLike,
  body: Uint8Array,
  dictionaryLengths: ReadonlyMap<number, number>,
  version: MetadataVersion,
): number {
  if (header.compression !== null && header.compression !== undefined) {
    throw new BatchDamage('compression', 'a compressed body', 'uncompressed (apache-arrow has no LZ4 or ZSTD codec here): write the file without compression');
  }
  const rows = header.length;
  if (!(Number.isSafeInteger(rows) && rows >= 0)) throw new BatchDamage('length', rows, 'a row count ≥ 0');
  if (rows > 8 * body.length + MAX_ROWS_WITHOUT_DATA) {
    throw new BatchDamage('length', rows, `at most ${8 * body.length + MAX_ROWS_WITHOUT_DATA} rows (8 per body byte + ${MAX_ROWS_WITHOUT_DATA})`);
  }
  const walker = new BatchWalker(header, body, dictionaryLengths, version);
  columns.forEach((column) => {
    const path = column instanceof Field ? `column ${JSON.stringify(column.name)}` : `dictionary values`;
    const length = walker.visit(column instanceof Field ? column.type : column, path);
    if (length !== rows) throw new BatchDamage(`${path} length`, length, `the batch's ${rows} rows`);
  });
  walker.finish();
  return rows;
}
