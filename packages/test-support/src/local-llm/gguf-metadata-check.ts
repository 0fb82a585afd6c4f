/**
 * The metadata check run before a model file reaches llama.cpp: a llama file without some keys
 * (`llama.feed_forward_length`, `llama.attention.head_count`) aborts the whole Node process
 * (SIGABRT) inside the engine, so they are checked here, from the header only, with
 * node-llama-cpp's own GGUF reader.
 *
 * @module
 */
import { readGgufFileInfo } from 'node-llama-cpp';

/** Keys every `llama` model file must carry before it is loaded. */
export const REQUIRED_LLAMA_METADATA_KEYS = [
  'general.architecture',
  'llama.context_length',
  'llama.embedding_length',
  'llama.block_count',
  'llama.feed_forward_length',
  'llama.attention.head_count',
  'llama.attention.layer_norm_rms_epsilon',
  'tokenizer.ggml.model',
  'tokenizer.ggml.tokens',
  'tokenizer.ggml.merges',
] as const;

/** A model file that is not a GGUF this support can load, named with what is wrong. */
export class GgufMetadataError extends Error {
  override readonly name = 'GgufMetadataError';

  constructor(
    /** The model file. */
    readonly path: string,
    /** The metadata keys that are missing (empty when the file is wrong in another way). */
    readonly missingKeys: readonly string[],
    message: string,
  ) {
    super(message);
  }
}

function lookup(metadata: unknown, key: string): unknown {
  let node: unknown = metadata;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object' || !(part in node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/**
 * Read a GGUF file's header and check it is a `llama` model with every key of
 * {@link REQUIRED_LLAMA_METADATA_KEYS}.
 *
 * @param path - the model file
 * @throws GgufMetadataError naming the file and each missing key, or the unreadable header
 */
export async function checkGgufMetadata(path: string): Promise<void> {
  let metadata: unknown;
  try {
    const info = await readGgufFileInfo(path, { readTensorInfo: false, logWarnings: false, sourceType: 'filesystem' });
    metadata = info.metadata;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new GgufMetadataError(path, [], `model file ${path}: not a readable GGUF file (${reason})`);
  }
  const architecture = lookup(metadata, 'general.architecture');
  if (architecture !== undefined && architecture !== 'llama') {
    throw new GgufMetadataError(
      path,
      [],
      `model file ${path}: general.architecture is ${JSON.stringify(architecture)}, expected "llama"`,
    );
  }
  const missing = REQUIRED_LLAMA_METADATA_KEYS.filter((key) => lookup(metadata, key) === undefined);
  if (missing.length > 0) {
    throw new GgufMetadataError(
      path,
      missing,
      `model file ${path}: metadata key${missing.length > 1 ? 's' : ''} ${missing.join(', ')} missing, expected every one of ${REQUIRED_LLAMA_METADATA_KEYS.join(', ')}`,
    );
  }
}
