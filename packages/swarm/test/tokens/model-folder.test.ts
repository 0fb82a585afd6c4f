import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ParlInputError } from '@parl/core';
import { makeTempDir } from '@parl/test-support/temp-dir';
import { describe, expect, it } from 'vitest';
import { loadModelFolder } from '../../src/tokens/model-folder.js';
import { loadTokenInModel } from '../../src/tokens/token-in-model.js';
import { QWEN3_FOLDER } from './qwen3-folder.js';

async function inputError(p: Promise<unknown>): Promise<ParlInputError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ParlInputError);
  return err as ParlInputError;
}

describe('a model folder with tokenizer.json (Qwen3, real)', () => {
  it('encodes special tokens as their single ids and round-trips text', async () => {
    const { tokenizer } = await loadModelFolder({ tokenizer: QWEN3_FOLDER });
    expect(tokenizer.kind).toBe('tokenizer.json');
    expect(tokenizer.encode('<|im_end|>')).toEqual([151645]);
    expect(tokenizer.encode('<|im_start|>user\nhi<|im_end|>')).toEqual([151644, ...tokenizer.encode('user\nhi'), 151645]);
    const text = '<think>\nLook it up.\n</think>\n\n<tool_call>\n{"name":"assign_task"}\n</tool_call><|im_end|>';
    expect(tokenizer.decode(tokenizer.encode(text))).toBe(text);
  });

  it('renders its template over system, user and tools with the generation prompt', async () => {
    const { template } = await loadModelFolder({ tokenizer: QWEN3_FOLDER });
    const out = template.render(
      [{ role: 'system', content: 'S' }, { role: 'user', content: 'U' }],
      [{ type: 'function', function: { name: 'assign_task', description: 'd', parameters: { type: 'object' } } }],
      true,
    );
    expect(out.startsWith('<|im_start|>system\nS\n\n# Tools')).toBe(true);
    expect(out).toContain('"name": "assign_task"');
    expect(out.endsWith('<|im_start|>user\nU<|im_end|>\n<|im_start|>assistant\n')).toBe(true);
  });

  it('--chat-template overrides the folder\'s template', async () => {
    const dir = await makeTempDir('chat-template');
    try {
      const file = join(dir.path, 'plain.jinja');
      await writeFile(file, '{% for m in messages %}[{{ m.role }}]{{ m.content }}{% endfor %}{% if add_generation_prompt %}[assistant]{% endif %}');
      const { template } = await loadModelFolder({ tokenizer: QWEN3_FOLDER, chatTemplate: file });
      expect(template.render([{ role: 'user', content: 'U' }], [], true)).toBe('[user]U[assistant]');
    } finally {
      await dir.remove();
    }
  });
});

describe('input errors before any request', () => {
  it('a folder that cannot be read, or has no tokenizer', async () => {
    const dir = await makeTempDir('no-tokenizer');
    try {
      expect((await inputError(loadModelFolder({ tokenizer: join(dir.path, 'missing') }))).field).toBe('tokenizer');
      await writeFile(join(dir.path, 'tokenizer_config.json'), '{}');
      expect((await inputError(loadModelFolder({ tokenizer: dir.path }))).expected).toMatch(/tokenizer\.json, or tiktoken\.model/);
      await writeFile(join(dir.path, 'tokenizer.json'), '{not json');
      expect((await inputError(loadModelFolder({ tokenizer: dir.path }))).code).toBe('PARL_ERR_PARSE');
    } finally {
      await dir.remove();
    }
  });

  it('a folder without a chat template, a template that does not parse, one that does not render', async () => {
    const dir = await makeTempDir('bad-template');
    try {
      const folder = join(dir.path, 'm');
      await mkdir(folder);
      const { readFile } = await import('node:fs/promises');
      await writeFile(join(folder, 'tokenizer.json'), await readFile(join(QWEN3_FOLDER, 'tokenizer.json')));
      expect((await inputError(loadModelFolder({ tokenizer: folder }))).expected).toMatch(/chat template/);
      const broken = join(dir.path, 'broken.jinja');
      await writeFile(broken, '{% for m in messages %}{{ m.content }');
      expect((await inputError(loadModelFolder({ tokenizer: folder, chatTemplate: broken }))).field).toBe('chat_template');
      const failing = join(dir.path, 'failing.jinja');
      await writeFile(failing, '{{ raise_exception("no tools here") if tools else "" }}');
      const err = await inputError(loadModelFolder({ tokenizer: folder, chatTemplate: failing }));
      expect(err.message).toMatch(/no tools here/);
      expect((await inputError(loadModelFolder({ tokenizer: folder, chatTemplate: join(dir.path, 'none.jinja') }))).field).toBe('chatTemplate');
    } finally {
      await dir.remove();
    }
  });

  it('an unknown parser', async () => {
    expect((await inputError(loadTokenInModel({ tokenizer: QWEN3_FOLDER, toolCallParser: 'pythonic', reasoningParser: 'qwen3' }))).field).toBe('toolCallParser');
    expect((await inputError(loadTokenInModel({ tokenizer: QWEN3_FOLDER, toolCallParser: 'hermes', reasoningParser: 'r1' }))).field).toBe('reasoningParser');
  });
});
