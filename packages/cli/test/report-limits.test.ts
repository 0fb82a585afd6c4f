import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtremaDownsampler } from '../src/internal/report/extrema-downsampler.js';
import { parl } from './support/memory-io.js';
import { writeRunFixture } from './support/run-fixture.js';
import { filesIn, useTempDirs } from '@parl/test-support/temp-dir';

const tempDir = useTempDirs('cli');

/** The number of data points of every chart dataset in a report, by chart and dataset label. */
function chartPoints(html: string): Map<string, number> {
  const m = /<script type="application\/json" id="parl-charts">([\s\S]*?)<\/script>/.exec(html);
  if (m === null || m[1] === undefined) throw new Error('no inline chart data');
  const charts = JSON.parse(m[1]) as { data: { datasets: { label: string; data: unknown[] }[] } }[];
  const points = new Map<string, number>();
  charts.forEach((chart, i) => {
    for (const d of chart.data.datasets) points.set(`chart ${i}: ${d.label}`, d.data.length);
  });
  return points;
}

describe('parl report on runs of any length', () => {
  it('keeps a report of a 200,000-step run to a few thousand points per series and a few MB', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    writeRunFixture(dir, 200_000);
    const r = await parl(['report', dir]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(statSync(join(dir, 'report.html')).size).toBeLessThan(4 * 1024 * 1024);
    const points = chartPoints(html);
    expect(points.size).toBeGreaterThan(5);
    for (const [label, n] of points) {
      if (n > 1) expect(n, label).toBeLessThanOrEqual(5000);
    }
    expect(html).toMatch(/<td>metrics lines<\/td><td class="num">200[ ,]?000<\/td>/);
    // the training curves are downsampled, not cut: the last step is still drawn
    expect(html).toContain('"x":199999');
  });

  it('refuses an empty metrics.jsonl, or one whose lines disagree with summary.json steps, and writes nothing', async () => {
    const dir = tempDir();
    writeRunFixture(dir, 60);
    writeFileSync(join(dir, 'metrics.jsonl'), '');
    const empty = await parl(['report', dir]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe('parl report: summary.json: steps must be the number of lines in metrics.jsonl (0), one per training step, got 60\n');
    writeRunFixture(dir, 60);
    const lines = readFileSync(join(dir, 'metrics.jsonl'), 'utf8').split('\n').slice(0, 40).join('\n');
    writeFileSync(join(dir, 'metrics.jsonl'), `${lines}\n`);
    const short = await parl(['report', dir]);
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/steps must be the number of lines in metrics\.jsonl \(40\)/);
    expect(filesIn(dir)).toEqual(['config.json', 'metrics.jsonl', 'summary.json']);
  });

  it('names a config.json nested too deeply to embed instead of crashing', async () => {
    const dir = tempDir();
    writeRunFixture(dir, 60);
    writeFileSync(join(dir, 'config.json'), `{"preset":"parl","x":${'['.repeat(6000)}${']'.repeat(6000)}}`);
    const r = await parl(['report', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^parl report: config\.json: record must be nested at most a few thousand levels deep/);
  });
});

describe('ExtremaDownsampler', () => {
  it('keeps every record while few, then every bucket extreme, in order', () => {
    const few = new ExtremaDownsampler<{ i: number; y: number }>({ buckets: 10 });
    for (let i = 0; i < 30; i++) few.push({ i, y: Math.sin(i) });
    expect(few.result().map((r) => r.i)).toEqual(Array.from({ length: 30 }, (_, i) => i));

    const many = new ExtremaDownsampler<{ i: number; y: number }>({ buckets: 10 });
    const ys: number[] = [];
    for (let i = 0; i < 100_000; i++) {
      const y = i === 77_777 ? 1e6 : i === 12_345 ? -1e6 : Math.sin(i / 1000);
      ys.push(y);
      many.push({ i, y });
    }
    const kept = many.result();
    expect(kept.length).toBeLessThanOrEqual(2 * 10 * 4 + 4);
    const idx = kept.map((r) => r.i);
    expect(idx).toEqual([...idx].sort((a, b) => a - b));
    expect(idx).toContain(0);
    expect(idx).toContain(99_999);
    expect(idx).toContain(77_777);
    expect(idx).toContain(12_345);
    expect(many.count).toBe(100_000);
  });
});
