import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { assembleKernels, GENERATED_PATH, generatedSource, WAT_PATH } from '../../scripts/assemble-kernels.mjs';
import { KERNELS_WASM_BASE64 } from '../../src/batch/kernels-wasm.js';

// kernels.wat is the source of truth: the embedded bytes must be what wabt assembles from it.

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** A file as committed at HEAD, or undefined outside a git checkout. */
function committed(path: string): string | undefined {
  try {
    return execFileSync('git', ['show', `HEAD:${path}`], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

describe('kernels-wasm.ts', () => {
  it('is generated from kernels.wat as it is in the working tree', async () => {
    const bytes = await assembleKernels(readFileSync(WAT_PATH, 'utf8'));
    expect(readFileSync(GENERATED_PATH, 'utf8')).toBe(generatedSource(bytes));
    expect(Buffer.from(KERNELS_WASM_BASE64, 'base64').equals(Buffer.from(bytes))).toBe(true);
  });

  it('is generated from kernels.wat as committed (the build regenerates it; this catches a stale commit)', async (context) => {
    const wat = committed('packages/core/src/batch/kernels.wat');
    const generated = committed('packages/core/src/batch/kernels-wasm.ts');
    if (wat === undefined || generated === undefined) {
      context.skip('not a git checkout with the kernels committed');
      return;
    }
    expect(generated).toBe(generatedSource(await assembleKernels(wat)));
  });

  it('stays under 4 KiB, so browsers compile it synchronously on their main thread', () => {
    expect(Buffer.from(KERNELS_WASM_BASE64, 'base64').length).toBeLessThan(4096);
  });
});
