/**
 * Models on an OpenAI-compatible endpoint (vLLM, SGLang, Ollama, LM Studio, llama.cpp's server)
 * through `@ai-sdk/openai-compatible`. The API key comes from the environment only:
 * `PARL_API_KEY`, else `OPENAI_API_KEY`, else none (local servers need none).
 *
 * @module
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';

/** The environment variables read for the API key, in order. */
export const API_KEY_VARIABLES = ['PARL_API_KEY', 'OPENAI_API_KEY'] as const;

/** A chat model `name` on the endpoint at `baseUrl` (e.g. `http://127.0.0.1:8000/v1`). */
export function endpointModel(baseUrl: string, name: string, env: NodeJS.ProcessEnv = process.env): LanguageModel {
  const apiKey = API_KEY_VARIABLES.map((v) => env[v]).find((v) => v !== undefined && v !== '');
  const provider = createOpenAICompatible({ name: 'openai-compatible', baseURL: baseUrl, ...(apiKey === undefined ? {} : { apiKey }) });
  return provider.chatModel(name);
}
