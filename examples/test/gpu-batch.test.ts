import { describe, expect, it } from 'vitest';
import { describeRun, runNodeExample } from './support/run-example.js';

describe('examples/gpu-batch.mjs (@parl/gpu on a large batch)', () => {
  it('prints the backend it chose and matches @parl/core to float32 precision', () => {
    const result = runNodeExample('gpu-batch.mjs', ['4096']);
    expect(result.status, describeRun('gpu-batch.mjs', result)).toBe(0);
    expect(result.stdout).toMatch(/^backend: (tensorflow-gpu|tensorflow|wasm|cpu) \(tfjs "\w+"\)$/m);
    expect(result.stdout).toContain('episodes: 4096 (8 stages × 32 sub-agent slots)');
    expect(result.stdout).toContain('matches @parl/core to float32 precision: yes');
  });

  it('uses the backend PARL_BACKEND forces, and says why it skipped the others', () => {
    const { PARL_BACKEND: _ignored, ...env } = process.env;
    const result = runNodeExample('gpu-batch.mjs', ['2048'], { ...env, PARL_BACKEND: 'cpu' });
    expect(result.status, describeRun('PARL_BACKEND=cpu gpu-batch.mjs', result)).toBe(0);
    expect(result.stdout).toMatch(/^backend: cpu \(tfjs "cpu"\)$/m);
    expect(result.stdout).toMatch(/^ {2}skipped wasm: /m);
    expect(result.stdout).toContain('matches @parl/core to float32 precision: yes');
  });

  it('refuses a batch size that is not a positive integer, naming it', () => {
    const result = runNodeExample('gpu-batch.mjs', ['many']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/episodes must be an integer ≥ 1, got "many"/);
  });
});
