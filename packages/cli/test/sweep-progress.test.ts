import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createSweepProgress, type SweepProgressEvent } from '../src/internal/terminal/sweep-progress.js';
import { memoryIo } from './support/memory-io.js';

const events: SweepProgressEvent[] = [
  { kind: 'skipped', runId: 'aaaaaaaaaaaaaaaa', label: 'lambda1=constant:0 seed=1', done: 1, total: 3 },
  { kind: 'finished', runId: 'bbbbbbbbbbbbbbbb', label: 'lambda1=constant:0 seed=2', done: 2, total: 3, speedup: 4.96, r_perf: 0.9153, wallSeconds: 4.21 },
  { kind: 'failed', runId: 'cccccccccccccccc', label: 'lambda1=constant:2 seed=1', done: 3, total: 3, error: 'boom' },
];

describe('sweep progress', () => {
  it('writes one line per run on a non-terminal stderr, nothing on stdout', () => {
    const m = memoryIo();
    const p = createSweepProgress(m.io, 'parl sweep');
    for (const e of events) p.update(e);
    p.stop();
    expect(m.stderr().split('\n')).toEqual([
      'parl sweep: run 1/3 aaaaaaaaaaaaaaaa (lambda1=constant:0 seed=1) already complete, skipped',
      'parl sweep: run 2/3 bbbbbbbbbbbbbbbb (lambda1=constant:0 seed=2) done in 4.21s: r_perf 0.9153, speed-up 4.96×',
      'parl sweep: run 3/3 cccccccccccccccc (lambda1=constant:2 seed=1) failed: boom',
      '',
    ]);
    expect(m.stdout()).toBe('');
  });

  it('draws a bar over runs on a terminal, with the failures under it once it stops; quiet shows nothing', () => {
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
    const p = createSweepProgress({ ...m.io, stderr: tty }, 'parl sweep');
    for (const e of events) p.update(e);
    p.stop();
    const text = chunks.join('');
    expect(text).toMatch(/3\/3 runs \| ETA \S+ \| skipped 1 \| failed 1/);
    expect(text.trimEnd().endsWith('parl sweep: run 3/3 cccccccccccccccc (lambda1=constant:2 seed=1) failed: boom')).toBe(true);
    const q = memoryIo('', true);
    const quiet = createSweepProgress(q.io, 'parl sweep', true);
    for (const e of events) quiet.update(e);
    quiet.stop();
    expect(q.stderr()).toBe('');
  });
});
