import { join } from 'node:path';
import { ParlInputError, resolveOptions } from '@parl/core';
import { startTokenCompletionsEndpoint, type TokenCompletionsEndpoint } from '@parl/test-support/token-completions-endpoint';
import { afterEach, describe, expect, it } from 'vitest';
import { swarmRun, SWARM_RUN_OPTIONS, type RolloutLine } from '../../src/index.js';
import { loadModelFolder } from '../../src/tokens/model-folder.js';
import { QWEN3_FOLDER } from './qwen3-folder.js';

let endpoint: TokenCompletionsEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

const flags = (url: string, extra: Record<string, string>) =>
  resolveOptions(SWARM_RUN_OPTIONS, { 'base-url': url, model: 'Qwen/Qwen3-8B', subagents: 'scripted', tasks: '1', 'group-size': '2', ...extra }, 'flag');

describe('parl swarm run --token-in', () => {
  it('writes lines whose token fields are the prompts, completions and bridges the endpoint saw', async () => {
    const { tokenizer } = await loadModelFolder({ tokenizer: QWEN3_FOLDER });
    const completion = [...tokenizer.encode('<think>\nNo tools needed.\n</think>\n\nI do not know.'), 151645];
    endpoint = await startTokenCompletionsEndpoint(() => ({ ids: completion }));
    const lines: RolloutLine[] = [];
    await swarmRun(flags(endpoint.baseURL, { 'token-in': 'true', tokenizer: QWEN3_FOLDER, 'tool-call-parser': 'hermes', 'reasoning-parser': 'qwen3', 'max-model-len': '32768' }), { onLine: (l) => void lines.push(l) });
    expect(lines).toHaveLength(2);
    expect(endpoint.requests).toHaveLength(2);
    for (const [i, line] of lines.entries()) {
      expect(line['prompt_ids']).toEqual(endpoint.requests[i]?.prompt);
      expect(line['response_ids']).toEqual(completion);
      expect(line['response_mask']).toEqual(completion.map(() => 1));
      expect(line).not.toHaveProperty('retokenized_at');
      expect(line['end_reason']).toBe('answer');
    }
    expect([...(lines[0]?.['response_logprobs'] as number[]), ...(lines[1]?.['response_logprobs'] as number[])]).toEqual(endpoint.served);
    expect(tokenizer.decode(endpoint.requests[0]?.prompt ?? []).endsWith('<|im_start|>assistant\n')).toBe(true);
  });

  it('a folder that cannot be read, an unknown parser, or --token-in without --tokenizer is an input error before any request', async () => {
    endpoint = await startTokenCompletionsEndpoint(() => ({ ids: [1] }));
    const url = endpoint.baseURL;
    const refused = async (run: () => Promise<unknown>): Promise<ParlInputError> => {
      const err = await run().then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(ParlInputError);
      return err as ParlInputError;
    };
    expect((await refused(() => swarmRun(flags(url, { 'token-in': 'true', tokenizer: join(QWEN3_FOLDER, 'nowhere') })))).field).toBe('tokenizer');
    expect((await refused(async () => swarmRun(flags(url, { 'token-in': 'true', tokenizer: QWEN3_FOLDER, 'tool-call-parser': 'pythonic' }))))).toBeDefined();
    expect((await refused(async () => swarmRun(flags(url, { 'token-in': 'true' })))).code).toBe('PARL_ERR_CONFLICT');
    expect((await refused(async () => swarmRun(flags(url, { tokenizer: QWEN3_FOLDER })))).code).toBe('PARL_ERR_CONFLICT');
    expect((await refused(async () => swarmRun(flags(url, { 'token-in': 'true', tokenizer: QWEN3_FOLDER, model: 'scripted:parallel' })))).field).toBe('--model');
    expect(endpoint.requests).toHaveLength(0);
  });
});
