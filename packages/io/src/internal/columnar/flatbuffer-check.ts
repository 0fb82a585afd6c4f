/**
 * A bounded check of a FlatBuffer against the shape of its tables, before any FlatBuffers reader
 * looks at it. The generated readers (`flatbuffers` for JavaScript, which apache-arrow uses) trust
 * every offset and length: a vector length of 2^31 is read as 2^31 elements (an endless loop or a
 * V8 out-of-memory abort), and a read past the end gives `undefined` that turns into 0. This check
 * follows every offset the readers would follow and holds each table, vector and string inside the
 * bytes, as the C++ `flatbuffers::Verifier` does, with the same two bounds on the work: a nesting
 * depth ({@link MAX_TABLE_DEPTH}) and a number of objects (one per 4 bytes of the buffer, the most
 * an unshared buffer can hold), so that checking takes time linear in the buffer's size.
 *
 * Offsets are read as the JavaScript reader reads them (signed 32-bit), and must point forward,
 * as every FlatBuffers writer's do, which rules out cycles.
 *
 * @module
 */

/** A field of a table: where its value lies and what it holds. */
export type FlatField =
  /** A scalar of `size` bytes inside the table. */
  | { readonly kind: 'scalar'; readonly size: 1 | 2 | 4 | 8 }
  /** A string (offset to a length-prefixed UTF-8 run). */
  | { readonly kind: 'string' }
  /** A table (offset to it). */
  | { readonly kind: 'table'; readonly shape: () => FlatTable }
  /** A vector of scalars or structs of `size` bytes each. */
  | { readonly kind: 'vector'; readonly size: number }
  /** A vector of offsets to tables. */
  | { readonly kind: 'tables'; readonly shape: () => FlatTable }
  /** A union's value: a table whose shape the type byte in slot `typeSlot` chooses. */
  | { readonly kind: 'union'; readonly typeSlot: number; readonly shapes: (type: number) => FlatTable | undefined };

/** A table's shape: its fields by slot (the order of the schema's declaration), and a name for messages. */
export interface FlatTable {
  /** The table's name in its schema (`Field`, `RecordBatch`…), for error messages. */
  readonly name: string;
  /** The fields by slot, each with its name in the schema; `undefined` for a slot the readers never read. */
  readonly fields: readonly (readonly [name: string, field: FlatField | undefined])[];
  /**
   * Slots that must be present: the readers dereference them without a null check. A union's
   * value must be present whenever its type has a shape (its reader reads the table).
   */
  readonly required?: readonly number[];
}

/** The deepest nesting of tables checked (the C++ verifier's default is 64). */
export const MAX_TABLE_DEPTH = 64;

/** What is wrong with a FlatBuffer, and where. */
export class FlatBufferDamage extends Error {
  /** The path of the damaged field from the root, e.g. `Message.header.fields[2].children[0].name`. */
  readonly path: string;
  /** What was expected there. */
  readonly expected: string;
  /** What was found. */
  readonly found: string;

  /**
   * @param path - the damaged field's path from the root
   * @param expected - what was expected there
   * @param found - what was found
   */
  constructor(path: string, expected: string, found: string) {
    super(`${path} must be ${expected}, got ${found}`);
    this.name = 'FlatBufferDamage';
    this.path = path;
    this.expected = expected;
    this.found = found;
  }
}

/** Reads of the buffer: little-endian, each one bounds-checked by its caller. */
class Checker {
  private objects = 0;
  private readonly maxObjects: number;

  constructor(private readonly bytes: Uint8Array) {
    this.maxObjects = Math.floor(bytes.length / 4) + 1;
  }

  private view(): DataView {
    return new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
  }

  private inside(path: string, at: number, length: number, what: string): void {
    if (!(at >= 0 && length >= 0 && at + length <= this.bytes.length)) {
      throw new FlatBufferDamage(path, `${what} inside the ${this.bytes.length} metadata bytes`, `${length} bytes at byte ${at}`);
    }
  }

  private count(path: string): void {
    if (++this.objects > this.maxObjects) {
      throw new FlatBufferDamage(path, `one of at most ${this.maxObjects} objects (one per 4 metadata bytes)`, 'more: the buffer refers to objects more than once');
    }
  }

  /** Where the offset stored at `at` points (forward, inside the buffer). */
  private target(path: string, at: number): number {
    this.inside(path, at, 4, 'an offset');
    const offset = this.view().getInt32(at, true);
    if (offset <= 0) throw new FlatBufferDamage(path, 'a forward offset (> 0)', String(offset));
    const to = at + offset;
    this.inside(path, to, 4, 'the object an offset points to');
    return to;
  }

  table(path: string, at: number, shape: FlatTable, depth: number): void {
    if (depth > MAX_TABLE_DEPTH) throw new FlatBufferDamage(path, `nested at most ${MAX_TABLE_DEPTH} tables deep`, 'deeper');
    this.count(path);
    const view = this.view();
    this.inside(path, at, 4, `a ${shape.name} table`);
    const vtable = at - view.getInt32(at, true);
    this.inside(path, vtable, 4, `the field table of a ${shape.name}`);
    const vtableSize = view.getInt16(vtable, true);
    const tableSize = view.getUint16(vtable + 2, true);
    if (vtableSize < 4 || vtableSize % 2 !== 0) throw new FlatBufferDamage(path, 'a field table size that is even and at least 4', String(vtableSize));
    this.inside(path, vtable, vtableSize, `the field table of a ${shape.name}`);
    if (tableSize < 4) throw new FlatBufferDamage(path, 'a table size of at least 4', String(tableSize));
    this.inside(path, at, tableSize, `a ${shape.name} table`);
    const slots = (vtableSize - 4) / 2;
    const fieldAt = (slot: number): number => {
      if (slot >= slots) return 0;
      const offset = view.getInt16(vtable + 4 + 2 * slot, true);
      if (offset < 0) throw new FlatBufferDamage(`${path}[slot ${slot}]`, 'a field offset ≥ 0', String(offset));
      return offset;
    };
    /** The type byte of a union (0, NONE, when absent). */
    const typeOf = (typeSlot: number): number => {
      const typeOffset = fieldAt(typeSlot);
      return typeOffset === 0 || typeOffset + 1 > tableSize ? 0 : (this.bytes[at + typeOffset] as number);
    };
    for (const slot of shape.required ?? []) {
      if (fieldAt(slot) === 0) throw new FlatBufferDamage(`${path}.${shape.fields[slot]?.[0] ?? `slot${slot}`}`, 'present', 'nothing');
    }
    shape.fields.forEach(([name, field], slot) => {
      if (field === undefined) return;
      const offset = fieldAt(slot);
      const fieldPath = `${path}.${name}`;
      if (offset === 0) {
        if (field.kind === 'union' && field.shapes(typeOf(field.typeSlot)) !== undefined) throw new FlatBufferDamage(fieldPath, 'present', 'nothing');
        return;
      }
      const size = field.kind === 'scalar' ? field.size : 4;
      if (offset + size > tableSize) throw new FlatBufferDamage(fieldPath, `inside its ${tableSize}-byte ${shape.name} table`, `${size} bytes at ${offset}`);
      this.field(fieldPath, at + offset, field, depth, typeOf);
    });
  }

  private field(path: string, at: number, field: FlatField, depth: number, typeOf: (slot: number) => number): void {
    switch (field.kind) {
      case 'scalar':
        return;
      case 'string': {
        const to = this.target(path, at);
        this.count(path);
        const length = this.view().getInt32(to, true);
        this.inside(path, to + 4, length, 'a string');
        return;
      }
      case 'table':
        return this.table(path, this.target(path, at), field.shape(), depth + 1);
      case 'union': {
        const type = typeOf(field.typeSlot);
        const shape = field.shapes(type);
        if (shape === undefined) return;
        return this.table(path, this.target(path, at), shape, depth + 1);
      }
      case 'vector':
      case 'tables': {
        const to = this.target(path, at);
        this.count(path);
        const length = this.view().getInt32(to, true);
        const size = field.kind === 'vector' ? field.size : 4;
        if (length < 0 || length > (this.bytes.length - to - 4) / size) {
          throw new FlatBufferDamage(path, `a vector length that fits in the ${this.bytes.length - to - 4} bytes after it (${size} bytes each)`, String(length));
        }
        if (field.kind === 'tables') {
          const shape = field.shape();
          for (let i = 0; i < length; i++) this.table(`${path}[${i}]`, this.target(`${path}[${i}]`, to + 4 + 4 * i), shape, depth + 1);
        }
        return;
      }
    }
  }

  root(shape: FlatTable): void {
    this.table(shape.name, this.target(shape.name, 0), shape, 0);
  }
}

/**
 * Check `bytes` (a FlatBuffer whose root table has `shape`) before a generated reader reads it.
 *
 * @throws {@link FlatBufferDamage} naming the first field whose offset, length or nesting is wrong
 *
 * @example
 * ```ts
 * import { MESSAGE } from './arrow-metadata-shapes.js';
 * // An Arrow IPC message's metadata (here 8 bytes whose root offset points past the end):
 * const metadata = new Uint8Array([64, 0, 0, 0, 0, 0, 0, 0]);
 * checkFlatBuffer(metadata, MESSAGE); // then Message.decode(metadata) reads inside it only
 * // throws: Message
 * ```
 */
export function checkFlatBuffer(bytes: Uint8Array, shape: FlatTable): void {
  new Checker(bytes).root(shape);
}
