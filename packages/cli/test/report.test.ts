import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRunFolder } from '../src/internal/report/run-folder.js';
import { parl } from './support/memory-io.js';
import { writeRunFixture } from './support/run-fixture.js';
import { filesIn, useTempDirs } from '@parl/test-support/temp-dir';

const tempDir = useTempDirs('cli');

function inlineData(html: string): { type: string; data: { datasets: { label: string; data: unknown[] }[] } }[] {
  const m = /<script type="application\/json" id="parl-charts">([\s\S]*?)<\/script>/.exec(html);
  if (m === null || m[1] === undefined) throw new Error('no inline chart data');
  return JSON.parse(m[1]) as never;
}

describe('parl report', () => {
  it('rebuilds report.html from the spec §6 files, self-contained, with five charts and the summary', async () => {
    const dir = join(tempDir(), 'run');
    writeRunFixture(dir, 30);
    const r = await parl(['report', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`report: ${join(dir, 'report.html')}\n`);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link[^>]+href=/);
    expect(html).toContain('Chart.js v4.6.1');
    const charts = inlineData(html);
    expect(charts.map((c) => c.type)).toEqual(['line', 'line', 'line', 'scatter', 'line']);
    expect(charts[0]?.data.datasets.map((d) => d.data.length)).toEqual([30, 30]);
    expect(charts[4]?.data.datasets[1]?.data).toEqual([
      { x: 0.3, y: 14 },
      { x: 0.5, y: 30 },
      { x: 0.7, y: null },
      { x: 0.9, y: null },
    ]);
    expect(html).toContain('<td>critical steps per episode</td><td class="num">17.5</td><td class="num">41</td>');
    expect(html).toContain('<td>0.7</td><td class="num">20</td><td class="num">never</td>');
    expect(filesIn(dir)).toEqual(['config.json', 'metrics.jsonl', 'report.html', 'summary.json']);
  });

  it('writes --out elsewhere and prints the path as JSON with --json', async () => {
    const base = tempDir();
    writeRunFixture(join(base, 'run'), 5);
    const out = join(base, 'r.html');
    const r = await parl(['report', join(base, 'run'), '--out', out, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ report: out });
    expect(existsSync(out)).toBe(true);
  });

  it('escapes data so a label cannot close the script element', async () => {
    const dir = join(tempDir(), 'run');
    writeRunFixture(dir, 5);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'summary.json'), JSON.stringify({ ...summary, preset: '</script><b>x' }));
    expect((await parl(['report', dir])).code).toBe(0);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).not.toContain('</script><b>');
    expect(html).toContain('&#60;/script&#62;&#60;b&#62;x');
  });

  it('names file, line, field and value of a bad metrics line, and writes no report', async () => {
    const dir = join(tempDir(), 'run');
    writeRunFixture(dir, 5);
    const lines = readFileSync(join(dir, 'metrics.jsonl'), 'utf8').split('\n');
    lines[2] = (lines[2] as string).replace(/"r_perf":[^,]+/, '"r_perf":"NaN"');
    writeFileSync(join(dir, 'metrics.jsonl'), lines.join('\n'));
    const r = await parl(['report', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('parl report: metrics.jsonl line 3: r_perf must be a finite number, got "NaN"\n');
    expect(existsSync(join(dir, 'report.html'))).toBe(false);
  });

  it('names a bad summary field, and a missing file in one line', async () => {
    const dir = join(tempDir(), 'run');
    writeRunFixture(dir, 5);
    writeFileSync(join(dir, 'summary.json'), JSON.stringify({ preset: 'parl', seed: 1, steps: 5, final: {}, baseline_serial: {}, latency_to_target: [] }));
    const r = await parl(['report', dir]);
    expect(r.stderr).toBe('parl report: summary.json: final.r_perf must be a finite number, got undefined (missing)\n');
    writeFileSync(join(dir, 'summary.json'), '{');
    expect((await parl(['report', dir])).stderr).toMatch(/^parl report: cannot read .*summary\.json: not valid JSON \(.+\)\n$/);
    const empty = tempDir();
    const missing = await parl(['report', empty]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`parl report: cannot read ${join(empty, 'config.json')}: no such file or directory (is ${empty} a run folder written by parl train?)\n`);
  });

  it('reads latency entries that are null as never reached', async () => {
    const dir = join(tempDir(), 'run');
    writeRunFixture(dir, 3);
    const run = await readRunFolder(dir);
    expect(run.metrics).toHaveLength(3);
    expect(run.summary.latency_to_target[3]).toEqual({ target: 0.9, policy: null, serial: null });
  });
});
