/**
 * The smallest llama model that node-llama-cpp runs (facts in shared/notes/local-llm.md):
 * embedding 64, 2 layers, 4 heads, feed-forward 128, context 2048, a byte-level vocabulary and a
 * ChatML template. Its weights come from a seeded random source, shaped so that what it writes is
 * printable ASCII that ends: every token embedding carries a constant channel (dimension 0), and
 * the output projection reads that channel as a per-token bias (printable bytes favoured, the
 * closing quote and the turn end more so, other bytes and control tokens almost never). The rest
 * of every weight is random, so each token still depends on the context: real inference, meaningless
 * text.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import {
  BOS_ID,
  CHATML_TEMPLATE,
  TURN_END_ID,
  TURN_START_ID,
  VOCABULARY_SIZE,
  vocabularyTokenTypes,
  vocabularyTokens,
} from './byte-vocabulary.js';
import { encodeGguf, GGUF_ALIGNMENT, type GgufTensor, type GgufValue } from './gguf-encoder.js';
import { seededRandom, type SeededRandom } from './seeded-random.js';

/** Shape of the tiny model (the smallest that worked; the context length can be raised per file). */
export const TINY_MODEL_SHAPE = {
  embedding: 64,
  layers: 2,
  heads: 4,
  feedForward: 128,
  contextLength: 2048,
} as const;

/** Options of {@link writeTinyGguf}. */
export interface TinyGgufOptions {
  /** Seed of the weights; the same seed writes the same bytes. Default 1. */
  readonly seed?: number;
  /**
   * Context length written in `llama.context_length`, which the endpoint uses per sequence by
   * default: an integer from 256 to 32768. Default 2048; raise it for prompts longer than ~2,000
   * bytes (one token per byte).
   */
  readonly contextLength?: number;
  /**
   * Metadata keys to leave out, to write a deliberately broken file for tests of
   * {@link checkGgufMetadata}. Default none.
   */
  readonly omitMetadataKeys?: readonly string[];
}

/** What {@link writeTinyGguf} wrote. */
export interface TinyGgufFile {
  /** The path written. */
  readonly path: string;
  /** Size of the file in bytes. */
  readonly bytes: number;
}

const BIAS_CHANNEL = 0;
/** Per-token bias read from the constant channel, in units of that channel. */
const BIAS_PRINTABLE = 1;
const BIAS_QUOTE = 2.1;
const BIAS_TURN_END = 2;
const BIAS_WHITESPACE = 0;
const BIAS_OTHER_BYTE = -5;
const BIAS_CONTROL = -8;
/** Standard deviations of the random parts. */
const STD_EMBEDDING = 0.3;
const STD_OUTPUT = 0.2;
const STD_LAYER = 0.08;

function outputBias(token: number): number {
  if (token === TURN_END_ID) return BIAS_TURN_END;
  if (token === BOS_ID || token === TURN_START_ID) return BIAS_CONTROL;
  if (token === 0x22) return BIAS_QUOTE;
  if (token === 0x0a) return BIAS_WHITESPACE;
  if (token >= 0x20 && token <= 0x7e) return BIAS_PRINTABLE;
  return BIAS_OTHER_BYTE;
}

function filled(count: number, value: number): Float32Array {
  return new Float32Array(count).fill(value);
}

function randomTensor(random: SeededRandom, count: number, std: number): Float32Array {
  const data = new Float32Array(count);
  for (let i = 0; i < count; i++) data[i] = random.normal() * std;
  return data;
}

function tinyTensors(seed: number): GgufTensor[] {
  const { embedding: d, layers, feedForward: ff } = TINY_MODEL_SHAPE;
  const random = seededRandom(seed);
  const tokenEmbedding = randomTensor(random, d * VOCABULARY_SIZE, STD_EMBEDDING);
  const output = randomTensor(random, d * VOCABULARY_SIZE, STD_OUTPUT);
  for (let token = 0; token < VOCABULARY_SIZE; token++) {
    tokenEmbedding[token * d + BIAS_CHANNEL] = 1;
    output[token * d + BIAS_CHANNEL] = outputBias(token);
  }
  const tensors: GgufTensor[] = [
    { name: 'token_embd.weight', dims: [d, VOCABULARY_SIZE], data: tokenEmbedding },
    { name: 'output_norm.weight', dims: [d], data: filled(d, 1) },
    { name: 'output.weight', dims: [d, VOCABULARY_SIZE], data: output },
  ];
  for (let layer = 0; layer < layers; layer++) {
    const p = `blk.${layer}.`;
    tensors.push(
      { name: `${p}attn_norm.weight`, dims: [d], data: filled(d, 1) },
      { name: `${p}attn_q.weight`, dims: [d, d], data: randomTensor(random, d * d, STD_LAYER) },
      { name: `${p}attn_k.weight`, dims: [d, d], data: randomTensor(random, d * d, STD_LAYER) },
      { name: `${p}attn_v.weight`, dims: [d, d], data: randomTensor(random, d * d, STD_LAYER) },
      { name: `${p}attn_output.weight`, dims: [d, d], data: randomTensor(random, d * d, STD_LAYER) },
      { name: `${p}ffn_norm.weight`, dims: [d], data: filled(d, 1) },
      { name: `${p}ffn_gate.weight`, dims: [d, ff], data: randomTensor(random, d * ff, STD_LAYER) },
      { name: `${p}ffn_up.weight`, dims: [d, ff], data: randomTensor(random, d * ff, STD_LAYER) },
      { name: `${p}ffn_down.weight`, dims: [ff, d], data: randomTensor(random, ff * d, STD_LAYER) },
    );
  }
  return tensors;
}

function tinyMetadata(contextLength: number): Map<string, GgufValue> {
  const { embedding, layers, heads, feedForward } = TINY_MODEL_SHAPE;
  return new Map<string, GgufValue>([
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: 'parl-tiny-test-model' }],
    ['general.alignment', { type: 'uint32', value: GGUF_ALIGNMENT }],
    ['llama.context_length', { type: 'uint32', value: contextLength }],
    ['llama.embedding_length', { type: 'uint32', value: embedding }],
    ['llama.block_count', { type: 'uint32', value: layers }],
    ['llama.feed_forward_length', { type: 'uint32', value: feedForward }],
    ['llama.attention.head_count', { type: 'uint32', value: heads }],
    ['llama.attention.head_count_kv', { type: 'uint32', value: heads }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'float32', value: 1e-5 }],
    ['llama.rope.dimension_count', { type: 'uint32', value: embedding / heads }],
    ['llama.vocab_size', { type: 'uint32', value: VOCABULARY_SIZE }],
    ['tokenizer.ggml.model', { type: 'string', value: 'gpt2' }],
    ['tokenizer.ggml.pre', { type: 'string', value: 'default' }],
    ['tokenizer.ggml.tokens', { type: 'string[]', value: vocabularyTokens() }],
    ['tokenizer.ggml.token_type', { type: 'int32[]', value: vocabularyTokenTypes() }],
    ['tokenizer.ggml.merges', { type: 'string[]', value: [] }],
    ['tokenizer.ggml.bos_token_id', { type: 'uint32', value: BOS_ID }],
    ['tokenizer.ggml.eos_token_id', { type: 'uint32', value: TURN_END_ID }],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: false }],
    ['tokenizer.chat_template', { type: 'string', value: CHATML_TEMPLATE }],
  ]);
}

/**
 * Write the tiny model as a GGUF v3 file (~0.5 MB, F32), atomically: a temporary file in the same
 * folder renamed into place, so a failed write leaves nothing at `path`.
 *
 * @param path - the file to write (overwritten when it exists)
 * @param options - seed, context length, and keys to omit for tests of the metadata check
 * @throws RangeError for a context length out of range (nothing is written)
 */
export async function writeTinyGguf(path: string, options: TinyGgufOptions = {}): Promise<TinyGgufFile> {
  const contextLength = options.contextLength ?? TINY_MODEL_SHAPE.contextLength;
  if (!Number.isInteger(contextLength) || contextLength < 256 || contextLength > 32768) {
    throw new RangeError(`contextLength: got ${contextLength}, expected an integer from 256 to 32768`);
  }
  const metadata = tinyMetadata(contextLength);
  for (const key of options.omitMetadataKeys ?? []) metadata.delete(key);
  const bytes = encodeGguf(metadata, tinyTensors(options.seed ?? 1));
  const temporary = `${path}.${randomBytes(6).toString('hex')}.partial`;
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return { path, bytes: bytes.length };
}
