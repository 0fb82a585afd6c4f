/**
 * Figures for the README: the tiny model's size and write time, engine start, model load, and
 * generation speed through the HTTP endpoint with one request and with two at once (1 thread per
 * context). Run: `cd packages/test-support && pnpm bench`.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { getLlama } from 'node-llama-cpp';
import { it } from 'vitest';
import { startLocalLlmServer } from '../src/local-llm/server.js';
import { writeTinyGguf } from '../src/local-llm/tiny-model.js';
import { makeTempDir } from '../src/temp-dir.js';

const CHARS = 800;
const body = JSON.stringify({
  messages: [{ role: 'user', content: 'Write.' }],
  response_format: { type: 'json_schema', json_schema: { name: 'long', schema: { type: 'string', minLength: CHARS, maxLength: CHARS } } },
  seed: 1,
});

async function generate(baseURL: string): Promise<number> {
  const response = await fetch(`${baseURL}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const json = (await response.json()) as { usage: { completion_tokens: number } };
  return json.usage.completion_tokens;
}

it('measures the tiny model and the endpoint', async () => {
  const dir = await makeTempDir('local-llm-bench');
  try {
    const path = join(dir.path, 'tiny.gguf');
    let t = performance.now();
    await writeTinyGguf(path);
    const writeMs = performance.now() - t;
    const bytes = (await stat(path)).size;
    t = performance.now();
    const llama = await getLlama({ gpu: false, build: 'never' });
    const engineMs = performance.now() - t;
    t = performance.now();
    const model = await llama.loadModel({ modelPath: path });
    const loadMs = performance.now() - t;
    await model.dispose();
    await llama.dispose();

    const server = await startLocalLlmServer({ modelPath: path, concurrency: 2 });
    try {
      await generate(server.baseURL); // warm-up
      t = performance.now();
      const one = await generate(server.baseURL);
      const oneRate = one / ((performance.now() - t) / 1000);
      t = performance.now();
      const two = (await Promise.all([generate(server.baseURL), generate(server.baseURL)])).reduce((a, b) => a + b, 0);
      const twoRate = two / ((performance.now() - t) / 1000);
      console.log(
        [
          `model file: ${(bytes / 1024).toFixed(0)} KiB, written in ${writeMs.toFixed(0)} ms`,
          `engine start (getLlama): ${engineMs.toFixed(0)} ms; model load: ${loadMs.toFixed(0)} ms`,
          `one request: ${one} tokens at ${oneRate.toFixed(0)} tokens/s (HTTP, grammar on)`,
          `two at once: ${two} tokens at ${twoRate.toFixed(0)} tokens/s together (${(twoRate / oneRate).toFixed(2)}x one)`,
        ].join('\n'),
      );
    } finally {
      await server.close();
    }
  } finally {
    await dir.remove();
  }
});
