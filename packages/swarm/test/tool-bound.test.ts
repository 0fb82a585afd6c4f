/**
 * The tool executor's bound (spec §10.3): a call cut by the tool timeout keeps its provider's
 * place until the tool settles, and a wait for a place counts toward the timeout — so a tool that
 * ignores the abort never has more than its bound running at once.
 */
import { describe, expect, it } from 'vitest';
import { generateSuite, runEpisode, type SwarmTask, type ToolProvider } from '../src/index.js';
import { Semaphore } from '../src/tools/semaphore.js';
import { orchestratorFrom, settingsWith, toolTexts } from './support.js';

const [task] = generateSuite('wide', { tasks: 1, seed: 5, entities: 2, attributes: 1 }) as [SwarmTask];

/** A provider of one tool, bound to `bound` calls at once, that takes `ms` and ignores its abort signal. */
function stubborn(bound: number, ms: number): { provider: ToolProvider; started: () => number; maxRunning: () => number; settled: Promise<void> } {
  let started = 0;
  let running = 0;
  let maxRunning = 0;
  let finished = 0;
  let allSettled!: () => void;
  const settled = new Promise<void>((r) => (allSettled = r));
  const provider: ToolProvider = {
    name: 'stubborn',
    limiter: new Semaphore(bound),
    tools: [{
      name: 'slow',
      description: 'Takes its time and ignores being stopped.',
      inputSchema: { type: 'object', properties: {} },
      check: (input) => ({ ok: true, value: input }),
      run: () => {
        started++;
        maxRunning = Math.max(maxRunning, ++running);
        return new Promise((resolve) =>
          setTimeout(() => {
            running--;
            if (++finished === bound) allSettled();
            resolve('done');
          }, ms),
        );
      },
    }],
  };
  return { provider, started: () => started, maxRunning: () => maxRunning, settled };
}

describe('the tool executor\'s bound', () => {
  it('keeps a timed-out call\'s place until the tool settles; waiting calls time out too', async () => {
    const tool = stubborn(2, 150);
    let results: string[] = [];
    const orchestrator = orchestratorFrom((n, options) => {
      if (n === 0) return [['slow', {}], ['slow', {}], ['slow', {}], ['slow', {}]];
      results = toolTexts(options);
      return 'final';
    });
    const { record } = await runEpisode(task, settingsWith({ orchestrator, toolProviders: [tool.provider], toolTimeoutMs: 40, singleAgent: true }));
    await tool.settled;
    expect(tool.maxRunning()).toBe(2);
    expect(tool.started()).toBe(2);
    expect(results).toEqual(Array.from({ length: 4 }, () => 'error: slow gave no result within 40 ms (the tool timeout)'));
    expect(record.tool_errors).toBe(4);
  });

  it('a wait its signal aborts ends, holds no place, and is passed over', async () => {
    const places = new Semaphore(1);
    const first = await places.acquire();
    const waiting = new AbortController();
    const abandoned = places.acquire(waiting.signal);
    const next = places.acquire();
    waiting.abort(new Error('gave up'));
    await expect(abandoned).rejects.toThrow('gave up');
    expect(places.held).toBe(1);
    first.release();
    (await next).release();
    expect(places.held).toBe(0);
  });
});
