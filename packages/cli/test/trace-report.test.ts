import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parl } from './support/memory-io.js';
import { filesIn, useTempDirs } from '@parl/test-support/temp-dir';

const OTLP = fileURLToPath(new URL('./fixtures/otlp-two-traces.jsonl', import.meta.url));
const WORKED = fileURLToPath(new URL('./fixtures/worked-example.jsonl', import.meta.url));
const tempDir = useTempDirs('cli');

describe('parl trace --report', () => {
  it('writes the trace report with the records, every trace id in it, the serial one drawn first', async () => {
    const dir = tempDir();
    const report = join(dir, 'traces.html');
    const r = await parl(['trace', '--in', OTLP, '--out', join(dir, 'episodes.jsonl'), '--report', report, '--report-drawn', '1', '--json']);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as { report: string; serial_collapse_traces: number };
    expect(summary).toMatchObject({ report, serial_collapse_traces: 1 });
    expect(filesIn(dir)).toEqual(['episodes.jsonl', 'traces.html']);
    const html = readFileSync(report, 'utf8');
    const ids = readFileSync(join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id);
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(html).toContain(id);
    expect(html.match(/<section class="card trace"/g)).toHaveLength(1);
    expect(html).toContain('1 other trace, largest possible saving first');
    expect(html).toMatch(/<section class="card trace" id="t\d+" data-trace-ordinal="\d+"><h2>[^<]+<\/h2><p class="verdict bad"><b>Serial collapse\.<\/b>/);
  });

  it('prints where the report went in the one-line summary, and labels the axis in seconds under --clock wall', async () => {
    const dir = tempDir();
    const report = join(dir, 'traces.html');
    const r = await parl(['trace', '--in', WORKED, '--out', join(dir, 'episodes.jsonl'), '--report', report, '--clock', 'wall']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/; report in .*traces\.html\n$/);
    expect(readFileSync(report, 'utf8')).toContain('numbers in seconds');
  });

  it('refuses --report-drawn out of range or without --report, and leaves no report after a failed run', async () => {
    const dir = tempDir();
    const report = join(dir, 'traces.html');
    expect(await parl(['trace', '--in', OTLP, '--report-drawn', '3'])).toMatchObject({ code: 2, stderr: 'parl trace: --report-drawn needs --report FILE\n' });
    // The row of @parl/traces' TRACE_REPORT_OPTIONS checks the value as commander reads it (not a seed's parser).
    expect(await parl(['trace', '--in', OTLP, '--report', report, '--report-drawn', '1001'])).toMatchObject({
      code: 2,
      stderr: "error: option '--report-drawn <n>' argument '1001' is invalid. Expected a decimal integer from 0 to 1000.\n",
    });
    expect((await parl(['trace', '--in', OTLP, '--report', OTLP])).stderr).toMatch(/--in and --report name the same file/);
    const broken = readFileSync(WORKED, 'utf8').split('\n').filter((l) => !l.includes('"id":"span_researcher"')).join('\n');
    writeFileSync(join(dir, 'broken.jsonl'), broken);
    const r = await parl(['trace', '--in', join(dir, 'broken.jsonl'), '--out', join(dir, 'out.jsonl'), '--report', report]);
    expect(r.code).toBe(2);
    expect(filesIn(dir)).toEqual(['broken.jsonl']);
  });
});
