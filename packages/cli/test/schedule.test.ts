import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSchedule, scheduleEndStep } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { sampleSchedule } from '../src/internal/commands/schedule-samples.js';
import { parl } from './support/memory-io.js';
import { filesIn, useTempDirs } from '@parl/test-support/temp-dir';

const tempDir = useTempDirs('cli');

describe('parl schedule', () => {
  it('prints a table over the schedule\'s own range, then an ASCII chart', async () => {
    const r = await parl(['schedule', 'linear:0.1:0:10000', '--points', '3']);
    expect(r.code).toBe(0);
    const [head, chart] = r.stdout.split('\n\n');
    expect(head).toBe(['schedule linear:0.1:0:10000', ' step  value', '    0  0.1', ' 5000  0.05', '10000  0'].join('\n'));
    expect(chart).toMatch(/0\.1 ┼/);
    expect(chart).toMatch(/step 0 +10000\n$/);
  });

  it('prints full-precision CSV with --csv and JSON with --json, values from core', async () => {
    const spec = 'cosine:0.1:0:1000';
    const csv = await parl(['schedule', spec, '--csv', '--points', '5']);
    const s = parseSchedule(spec);
    expect(csv.stdout).toBe(['step,value', ...[0, 250, 500, 750, 1000].map((x) => `${x},${s.at(x)}`), ''].join('\n'));
    const json = JSON.parse((await parl(['schedule', spec, '--json', '--points', '2', '--from', '100', '--to', '300'])).stdout) as {
      schedule: string;
      samples: { step: number; value: number }[];
    };
    expect(json.schedule).toBe(spec);
    expect(json.samples).toEqual([{ step: 100, value: s.at(100) }, { step: 300, value: s.at(300) }]);
  });

  it('accepts the JSON form and leaves the chart out with --no-chart', async () => {
    const r = await parl(['schedule', '{"kind":"step","values":[0.1,0.05,0],"boundaries":[3000,6000]}', '--no-chart', '--points', '2']);
    // two evenly spaced points, plus the schedule's two boundaries where its value changes
    expect(r.stdout).toBe('schedule step:0.1,0.05,0:3000,6000\nstep  value\n   0  0.1\n3000  0.05\n6000  0\n7500  0\n');
  });

  it('writes an HTML chart atomically with --html, and the table to --out', async () => {
    const dir = tempDir();
    const html = join(dir, 'lambda.html');
    const out = join(dir, 'lambda.csv');
    const r = await parl(['schedule', 'piecewise:0=0,500=0.1,10000=0', '--html', html, '--csv', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(readFileSync(out, 'utf8').split('\n')[0]).toBe('step,value');
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<title>Schedule piecewise:0=0,500=0.1,10000=0</title>');
    expect(page).not.toMatch(/<script[^>]+src=/);
    expect(filesIn(dir)).toEqual(['lambda.csv', 'lambda.html']);
  });

  it('gives one clear line and exit code 2 for a bad schedule, and writes nothing', async () => {
    const dir = tempDir();
    const html = join(dir, 'x.html');
    const cases: [string, string][] = [
      ['zigzag:1', 'parl schedule: SPEC must be a schedule of kind constant, linear, cosine, exponential, step, piecewise (short form like linear:0.1:0:10000 or JSON), got "zigzag:1"\n'],
      ['linear:0.1:0:0', 'parl schedule: SPEC.steps must be a finite number > 0, got 0\n'],
      ['step:0.1,0.05:3000,2000', 'parl schedule: SPEC.boundaries[1] must be greater than boundaries[0] = 3000 (boundaries must increase), got 2000\n'],
    ];
    for (const [spec, message] of cases) {
      const r = await parl(['schedule', spec, '--html', html]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(message);
      expect(r.stdout).toBe('');
    }
    expect(existsSync(html)).toBe(false);
  });

  it('rejects --to not above --from', async () => {
    const r = await parl(['schedule', 'constant:1', '--from', '50', '--to', '50']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('parl schedule: --to must be a step greater than --from (50), got 50\n');
  });

  it('needs SPEC: one line and exit 2 without it', async () => {
    const r = await parl(['schedule']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error: missing required argument 'spec'");
    expect(r.stderr).not.toContain('Usage:');
  });
});

describe('schedule sampling', () => {
  it("defaults the range to core's schedule end step, where each kind of schedule reaches its final value", () => {
    for (const spec of ['linear:1:0:400', 'step:1,0:800', 'piecewise:0=0,300=1', 'constant:1']) {
      const rows = sampleSchedule(spec).samples;
      expect(rows[rows.length - 1]?.step, spec).toBe(scheduleEndStep(spec));
    }
    expect(sampleSchedule('step:1,0:800').samples.at(-1)?.step).toBe(1000);
  });

  it('keeps fractional steps when the range is shorter than the number of rows', () => {
    expect(sampleSchedule('linear:1:0:1', { points: 3 }).samples.map((s) => s.step)).toEqual([0, 0.5, 1]);
  });
});

describe('parl schedule flags', () => {
  it('refuses --csv with --json (usage, exit 2)', async () => {
    const r = await parl(['schedule', 'constant:1', '--csv', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error: option '--csv' cannot be used with option '--json'");
  });
});
