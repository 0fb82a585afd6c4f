/**
 * The built ES module (dist/index.js) in headless Chromium (playwright-core, the system Chromium),
 * on a page's main thread: the WebAssembly SIMD kernels load from the embedded bytes (no file, no
 * fetch; synchronous compilation, which Chromium allows there only for modules under 4 KiB) and
 * give the JavaScript kernels' numbers, bit for bit.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findChromium, launchChromium, type Browser } from '@parl/test-support/chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const chromiumLookup = findChromium();
const HAVE_CHROMIUM = chromiumLookup.skipReason === undefined;
const SKIP_REASON = chromiumLookup.skipReason ?? '';
if (!HAVE_CHROMIUM) console.warn(`core browser tests skipped: ${SKIP_REASON}`);

const bundle = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/** What the page reports: which kernel runs, and whether each kernel's outputs equal the JavaScript ones. */
interface PageReport {
  supported: boolean;
  resolved: string;
  criticalSame: boolean;
  rewardSame: boolean;
  critical0: number;
}

describe.skipIf(!HAVE_CHROMIUM)(HAVE_CHROMIUM ? 'the WebAssembly kernels in headless Chromium' : `the WebAssembly kernels in headless Chromium (skipped: ${SKIP_REASON})`, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium(chromiumLookup.path as string);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('load from the bundle on the main thread and equal the JavaScript kernels', { timeout: 60_000 }, async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const report = await page.evaluate(async (source: string): Promise<PageReport> => {
      const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
      // through Function, so that vitest does not rewrite the import() for Node
      const load = new Function('url', 'return import(url)') as (url: string) => Promise<typeof import('../../src/index.js')>;
      const core = await load(url);
      const same = (a: object, b: object): boolean =>
        Object.entries(b).every(([k, want]: [string, ArrayLike<number>]) =>
          Array.from(want).every((v, i) => Object.is(v, (a as Record<string, ArrayLike<number>>)[k]?.[i])),
        );
      let seed = 7;
      const random = (): number => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed / 2147483648;
      };
      const [B, T, N] = [50, 6, 37];
      const input = core.allocateCriticalStepsBatchInput(B, T, N);
      for (let i = 0; i < input.subSteps.length; i++) input.subSteps[i] = random() < 0.5 ? Math.floor(random() * 20) : random() * 1e3;
      const groupSizes = Int32Array.from({ length: B * T }, () => Math.floor(random() * (N + 1)));
      const wasmCs = core.criticalStepsBatch({ ...input, groupSizes, kernel: 'wasm' });
      const jsCs = core.criticalStepsBatch({ ...input, subSteps: Float32Array.from(input.subSteps), groupSizes, kernel: 'js' });
      const size = 101;
      const rewardInput = {
        numSubagents: Float32Array.from({ length: size }, () => Math.floor(random() * 120)),
        rPerf: Float64Array.from({ length: size }, () => random()),
        trainingStep: Float32Array.from({ length: size }, () => Math.floor(random() * 12000)),
      };
      const wasmReward = core.rewardBatch({ ...rewardInput, kernel: 'wasm' }, {}, core.allocateRewardBatchOutput(size));
      const jsReward = core.rewardBatch({ ...rewardInput, kernel: 'js' });
      return {
        supported: core.wasmSimdSupported(),
        resolved: core.resolveBatchKernel(),
        criticalSame: same(wasmCs, jsCs),
        rewardSame: same(wasmReward, jsReward),
        critical0: wasmCs.critical_steps[0] ?? Number.NaN,
      };
    }, readFileSync(bundle, 'utf8'));
    expect(errors).toEqual([]);
    expect(report).toMatchObject({ supported: true, resolved: 'wasm', criticalSame: true, rewardSame: true });
    expect(report.critical0).toBeGreaterThan(0);
  });
});
