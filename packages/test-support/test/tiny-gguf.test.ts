import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getLlama, readGgufFileInfo } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkGgufMetadata, GgufMetadataError } from '../src/local-llm/gguf-metadata-check.js';
import { startLocalLlmServer } from '../src/local-llm/server.js';
import { TINY_MODEL_SHAPE, writeTinyGguf } from '../src/local-llm/tiny-model.js';
import { makeTempDir, type TempDir } from '../src/temp-dir.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir('tiny-gguf');
});
afterAll(async () => {
  await dir.remove();
});

describe('writeTinyGguf', () => {
  it('writes the same bytes for the same seed and other weights for another seed', async () => {
    const a = await writeTinyGguf(join(dir.path, 'a.gguf'), { seed: 5 });
    const b = await writeTinyGguf(join(dir.path, 'b.gguf'), { seed: 5 });
    const c = await writeTinyGguf(join(dir.path, 'c.gguf'), { seed: 6 });
    const [bytesA, bytesB, bytesC] = await Promise.all([a, b, c].map((f) => readFile(f.path)));
    expect(bytesA!.equals(bytesB!)).toBe(true);
    expect(bytesA!.equals(bytesC!)).toBe(false);
    expect(bytesA!.length).toBe(a.bytes);
  });

  it('is read back by node-llama-cpp with the shape it was written with', async () => {
    const file = await writeTinyGguf(join(dir.path, 'shape.gguf'));
    const info = await readGgufFileInfo(file.path, { logWarnings: false });
    expect(info.version).toBe(3);
    const llamaMeta = info.metadata.llama as unknown as Record<string, unknown>;
    expect(info.metadata.general.architecture).toBe('llama');
    expect(llamaMeta.embedding_length).toBe(TINY_MODEL_SHAPE.embedding);
    expect(llamaMeta.block_count).toBe(TINY_MODEL_SHAPE.layers);
    expect(info.tensorInfo?.length).toBe(3 + 9 * TINY_MODEL_SHAPE.layers);
  });

  it('loads in llama.cpp and its tokenizer round-trips any text one token per byte', async () => {
    const file = await writeTinyGguf(join(dir.path, 'load.gguf'));
    await checkGgufMetadata(file.path);
    const llama = await getLlama({ gpu: false, build: 'never' });
    try {
      const model = await llama.loadModel({ modelPath: file.path });
      const text = 'Grüße, {"a": [1, 2]}\n\ttabs & ünïcödé ✓';
      const tokens = model.tokenize(text);
      expect(tokens.length).toBe(Buffer.byteLength(text, 'utf8'));
      expect(model.detokenize(tokens)).toBe(text);
      const chat = model.tokenize('<|im_start|>user\nhi<|im_end|>', true);
      expect(chat.length).toBe(1 + 'user\nhi'.length + 1);
      await model.dispose();
    } finally {
      await llama.dispose();
    }
  });
});

describe('checkGgufMetadata', () => {
  it('names the missing key of a file llama.cpp would abort on, and the server refuses it before loading', async () => {
    const file = await writeTinyGguf(join(dir.path, 'broken.gguf'), { omitMetadataKeys: ['llama.feed_forward_length'] });
    const refused = await checkGgufMetadata(file.path).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GgufMetadataError);
    expect((refused as GgufMetadataError).missingKeys).toEqual(['llama.feed_forward_length']);
    expect((refused as Error).message).toContain('llama.feed_forward_length missing');
    await expect(startLocalLlmServer({ modelPath: file.path })).rejects.toThrow(GgufMetadataError);
  });

  it('refuses a file that is not GGUF at all', async () => {
    const path = join(dir.path, 'not.gguf');
    await import('node:fs/promises').then((fs) => fs.writeFile(path, 'hello'));
    await expect(checkGgufMetadata(path)).rejects.toThrow(/not a readable GGUF file/);
  });
});
