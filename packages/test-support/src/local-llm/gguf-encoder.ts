/**
 * The GGUF v3 container (ggml's docs/gguf.md): header, metadata key/values, tensor infos, then
 * F32 tensor data, each piece aligned to {@link GGUF_ALIGNMENT} bytes.
 *
 * @module
 */

/** Byte alignment of the tensor data (GGUF's default, stated in `general.alignment` too). */
export const GGUF_ALIGNMENT = 32;

/** One metadata value, tagged with the GGUF value type it is written as. */
export type GgufValue =
  | { readonly type: 'uint32'; readonly value: number }
  | { readonly type: 'int32'; readonly value: number }
  | { readonly type: 'float32'; readonly value: number }
  | { readonly type: 'bool'; readonly value: boolean }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'string[]'; readonly value: readonly string[] }
  | { readonly type: 'int32[]'; readonly value: readonly number[] };

/** One F32 tensor: its name, its dimensions (innermost first, as ggml's `ne`) and its values. */
export interface GgufTensor {
  readonly name: string;
  readonly dims: readonly number[];
  readonly data: Float32Array;
}

const TYPE_UINT32 = 4;
const TYPE_INT32 = 5;
const TYPE_FLOAT32 = 6;
const TYPE_BOOL = 7;
const TYPE_STRING = 8;
const TYPE_ARRAY = 9;
const GGML_TYPE_F32 = 0;

/** Append-only little-endian byte builder. */
class ByteWriter {
  private readonly chunks: Buffer[] = [];
  length = 0;

  private push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  u32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    this.push(b);
  }

  i32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(value);
    this.push(b);
  }

  u64(value: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(value));
    this.push(b);
  }

  f32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.push(b);
  }

  u8(value: number): void {
    this.push(Buffer.from([value]));
  }

  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }

  raw(bytes: Buffer): void {
    this.push(bytes);
  }

  padTo(alignment: number): void {
    const pad = (alignment - (this.length % alignment)) % alignment;
    if (pad > 0) this.push(Buffer.alloc(pad));
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.chunks, this.length);
  }
}

function writeValue(out: ByteWriter, value: GgufValue): void {
  switch (value.type) {
    case 'uint32':
      out.u32(TYPE_UINT32);
      out.u32(value.value);
      return;
    case 'int32':
      out.u32(TYPE_INT32);
      out.i32(value.value);
      return;
    case 'float32':
      out.u32(TYPE_FLOAT32);
      out.f32(value.value);
      return;
    case 'bool':
      out.u32(TYPE_BOOL);
      out.u8(value.value ? 1 : 0);
      return;
    case 'string':
      out.u32(TYPE_STRING);
      out.string(value.value);
      return;
    case 'string[]':
      out.u32(TYPE_ARRAY);
      out.u32(TYPE_STRING);
      out.u64(value.value.length);
      for (const item of value.value) out.string(item);
      return;
    case 'int32[]':
      out.u32(TYPE_ARRAY);
      out.u32(TYPE_INT32);
      out.u64(value.value.length);
      for (const item of value.value) out.i32(item);
      return;
  }
}

/**
 * Encode a whole GGUF v3 file.
 *
 * @param metadata - key/values in the order they are written
 * @param tensors - F32 tensors; each `data` length must equal the product of its `dims`
 */
export function encodeGguf(metadata: ReadonlyMap<string, GgufValue>, tensors: readonly GgufTensor[]): Buffer {
  const out = new ByteWriter();
  out.raw(Buffer.from('GGUF', 'ascii'));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(metadata.size);
  for (const [key, value] of metadata) {
    out.string(key);
    writeValue(out, value);
  }
  let offset = 0;
  for (const tensor of tensors) {
    const count = tensor.dims.reduce((a, b) => a * b, 1);
    if (count !== tensor.data.length) {
      throw new Error(`tensor ${tensor.name}: ${tensor.data.length} values, expected ${count} (dims ${tensor.dims.join('x')})`);
    }
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const dim of tensor.dims) out.u64(dim);
    out.u32(GGML_TYPE_F32);
    out.u64(offset);
    offset += Math.ceil((count * 4) / GGUF_ALIGNMENT) * GGUF_ALIGNMENT;
  }
  out.padTo(GGUF_ALIGNMENT);
  for (const tensor of tensors) {
    out.raw(Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    out.padTo(GGUF_ALIGNMENT);
  }
  return out.toBuffer();
}
