// A tiny test model on a loopback OpenAI-compatible endpoint, for trying the swarm examples in a
// checkout of this repository without downloading a model (none is needed: the GGUF file is
// written here, ~470 KB of shaped random weights; the answers are meaningless, the inference is
// real, on the CPU with node-llama-cpp).
//
//   npx tsx examples/serve-tiny-model.mjs [MODEL.gguf]
//
// It prints the flags to pass to swarm-local.mjs (or parl swarm) and serves until Ctrl-C. It uses
// this repository's test support (not published); outside it, serve any model with llama.cpp's
// `llama-server -m MODEL.gguf --jinja` instead.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalLlmServer } from '@parl/test-support/local-llm/server';
import { writeTinyGguf } from '@parl/test-support/local-llm/tiny-model';

const path = process.argv[2] ?? join(tmpdir(), 'parl-tiny.gguf');
const model = await writeTinyGguf(path);
// The suites' prompts with their tools' schemas pass the tiny model's 2048 tokens (one per byte).
const server = await startLocalLlmServer({ modelPath: model.path, contextSize: 8192 });
console.log(`model file ${model.path}`);
console.log(`--base-url ${server.baseURL} --model ${server.modelName}`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
