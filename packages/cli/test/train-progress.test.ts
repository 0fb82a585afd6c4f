import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgressReporter, type ProgressUpdate } from '../src/internal/terminal/train-progress.js';
import { memoryIo } from './support/memory-io.js';

function update(step: number, totalSteps = 20): ProgressUpdate {
  return { step, totalSteps, lambda1: 0.1 - step / 1000, lambda2: 0.05, total_reward: 0.5 + step / 100, mean_width: 3, elapsedMs: step * 100 };
}

describe('training progress', () => {
  it('writes plain lines on a non-terminal stderr: first step, each tenth, last step', () => {
    const m = memoryIo();
    const p = createProgressReporter(m.io, 'parl train');
    for (let s = 1; s <= 20; s++) p.update(update(s));
    p.stop();
    const lines = m.stderr().trim().split('\n');
    expect(lines.map((l) => /step (\d+)\/20/.exec(l)?.[1])).toEqual(['1', '2', '4', '6', '8', '10', '12', '14', '16', '18', '20']);
    expect(lines[0]).toBe('parl train: step 1/20 λ1=0.099 λ2=0.05 reward=0.51 width=3 elapsed=0.1s eta=2s');
    expect(m.stdout()).toBe('');
  });

  it('draws a bar with step, ETA, λ1, λ2, reward and width on a terminal stderr', () => {
    const chunks: string[] = [];
    const tty = Object.assign(
      new Writable({
        write(chunk: Buffer | string, _e, done): void {
          chunks.push(String(chunk));
          done();
        },
      }),
      { isTTY: true, columns: 160, rows: 40, cursorTo: (_x: number, _y?: number, cb?: () => void) => (cb?.(), true), clearLine: (_d: number, cb?: () => void) => (cb?.(), true), moveCursor: (_x: number, _y: number, cb?: () => void) => (cb?.(), true) },
    );
    const m = memoryIo('', true);
    const p = createProgressReporter({ ...m.io, stderr: tty }, 'train');
    for (let s = 1; s <= 5; s++) p.update(update(s, 5));
    p.stop();
    const text = chunks.join('');
    expect(text).toContain('5/5 steps');
    expect(text).toMatch(/ETA \S+ \| λ1 0\.095 λ2 0\.05 \| reward 0\.55 \| width 3/);
    expect(m.stdout()).toBe('');
  });

  it('shows nothing when quiet', () => {
    const m = memoryIo();
    const p = createProgressReporter(m.io, 'parl train', true);
    p.update(update(1));
    p.stop();
    expect(m.stderr()).toBe('');
  });
});
