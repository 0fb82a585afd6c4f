import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parl } from './support/memory-io.js';
import { writeTinyGrid, TINY_CONFIG } from './support/sweep-grid.js';
import { filesIn, useTempDirs } from '@parl/test-support/temp-dir';

const tempDir = useTempDirs('cli');

interface SweepJsonRuns {
  runs: { run_id: string; point: number; seed: number; wall_s: number | null }[];
}

describe('parl sweep (local thread pool)', () => {
  it('writes the spec §9 sweep folder, then resumes by skipping complete runs and retraining an incomplete one', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const grid = writeTinyGrid(dir);
    const out = join(dir, 'sweep');
    const first = await parl(['sweep', '--grid', grid, '--out', out, '--threads', '2']);
    expect(first.stderr).toContain('parl sweep: 4 runs, 0 already complete; training on 2 threads\n');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(`sweep folder: ${out}\nresults: ${join(out, 'results.csv')}\nreport: ${join(out, 'report.html')}\n`);
    expect(filesIn(out)).toEqual(['.parl-sweep', 'report.html', 'results.csv', 'runs', 'sweep.json']);

    const sweepJson = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as SweepJsonRuns & { parameters: string[] };
    expect(sweepJson.parameters).toEqual(['lambda1']);
    expect(sweepJson.runs.map((r) => [r.point, r.seed])).toEqual([[0, 1], [0, 2], [1, 1], [1, 2]]);
    expect(filesIn(join(out, 'runs'))).toEqual(sweepJson.runs.map((r) => r.run_id).sort());
    for (const run of sweepJson.runs) {
      expect(filesIn(join(out, 'runs', run.run_id))).toEqual(['config.json', 'metrics.jsonl', 'policy', 'report.html', 'summary.json']);
      expect(run.wall_s).toBeGreaterThan(0);
    }

    const csv = readFileSync(join(out, 'results.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe('lambda1,seed,final_r_perf,final_critical_steps,final_mean_width,final_finish_rate,serial_r_perf,serial_critical_steps,speedup,wall_s');
    expect(csv.slice(1).map((l) => l.split(',').slice(0, 2).join(','))).toEqual(['linear:0.3:0:2,1', 'linear:0.3:0:2,2', 'constant:0,1', 'constant:0,2']);
    const firstRun = sweepJson.runs[0]!;
    const summary = JSON.parse(readFileSync(join(out, 'runs', firstRun.run_id, 'summary.json'), 'utf8')) as { final: { r_perf: number; critical_steps: number }; baseline_serial: { critical_steps: number } };
    const cells = (csv[1] ?? '').split(',');
    expect(Number(cells[2])).toBe(summary.final.r_perf);
    expect(Number(cells[8])).toBeCloseTo(summary.baseline_serial.critical_steps / summary.final.critical_steps, 12);
    expect(Number(cells[9])).toBe(firstRun.wall_s);

    // A run of the sweep is the same run as `parl train` with the same settings, byte for byte.
    const config = join(dir, 'train.json');
    writeFileSync(config, JSON.stringify({ ...TINY_CONFIG, reward: { lambda1: 'linear:0.3:0:2' } }));
    expect((await parl(['train', '--steps', '3', '--seed', '1', '--config', config, '--out', join(dir, 'train'), '--quiet'])).code).toBe(0);
    expect(readFileSync(join(out, 'runs', firstRun.run_id, 'summary.json'), 'utf8')).toBe(readFileSync(join(dir, 'train', 'summary.json'), 'utf8'));
    expect(readFileSync(join(out, 'runs', firstRun.run_id, 'metrics.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'train', 'metrics.jsonl'), 'utf8'));

    // Resume: one run folder lost its policy (a file of @parl/sim's RUN_FOLDER_FILES); the rest are skipped.
    const broken = sweepJson.runs[3]!.run_id;
    rmSync(join(out, 'runs', broken, 'policy', 'policy.json'));
    const keptMtime = statSync(join(out, 'runs', firstRun.run_id, 'summary.json')).mtimeMs;
    const second = await parl(['sweep', '--grid', grid, '--out', out, '--json', '--quiet']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ runs: 4, trained: 1, skipped: 3, failed: [], verdicts: { collapsed: 2, spurious: 0, parallel: 0 } });
    expect(existsSync(join(out, 'runs', broken, 'policy', 'policy.json'))).toBe(true);
    expect(existsSync(join(out, 'runs', broken, 'report.html'))).toBe(true);
    expect(statSync(join(out, 'runs', firstRun.run_id, 'summary.json')).mtimeMs).toBe(keptMtime);
    const csv2 = readFileSync(join(out, 'results.csv'), 'utf8').trim().split('\n');
    expect(csv2.slice(0, 4)).toEqual(csv.slice(0, 4)); // skipped runs keep their recorded wall_s
    expect(csv2).toHaveLength(5);
  });

  it('names unknown paths and bad values in the grid file, and refuses a folder that is not a sweep', async () => {
    const dir = tempDir();
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ grid: { 'env.famly': ['wide'] } }));
    const r = await parl(['sweep', '--grid', bad, '--out', join(dir, 'x')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^parl sweep: --grid .*bad\.json: grid\["env\.famly"\] must be a training-config path .*env has family/);
    writeFileSync(bad, JSON.stringify({ grid: { 'env.budget': [80, 'lots'] } }));
    expect((await parl(['sweep', '--grid', bad, '--out', join(dir, 'x')])).stderr).toMatch(/grid\["env\.budget"\]\[1\]/);
    expect(existsSync(join(dir, 'x'))).toBe(false);

    const busy = join(dir, 'busy');
    writeFileSync(join(dir, 'note.txt'), 'x');
    const grid = writeTinyGrid(dir);
    const r2 = await parl(['sweep', '--grid', grid, '--out', dir]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/holds .* but is not a sweep folder/);
    expect(existsSync(busy)).toBe(false);
    const badQueue = await parl(['sweep', '--grid', grid, '--queue', 'http://x']);
    expect(badQueue.code).toBe(2);
    expect(badQueue.stderr).toMatch(/--queue <url>' argument 'http:\/\/x' is invalid. Expected a Redis URL: redis:\/\/HOST/);
    const nameAlone = await parl(['sweep', '--grid', grid, '--queue-name', 'mine']);
    expect(nameAlone.stderr).toBe('parl sweep: --queue-name must be used with --queue, got "mine"\n');
    expect(nameAlone.code).toBe(2);
    expect((await parl(['sweep', '--grid', grid, '--queue', 'redis://127.0.0.1:1', '--threads', '2'])).stderr).toMatch(/exclude each other/);
  });

  it('refuses a folder holding a sweep.json it did not write (the grid file), naming it, and changes nothing (issue 24, item 4)', async () => {
    const dir = tempDir();
    const grid = writeTinyGrid(dir);
    const userGrid = join(dir, 'sweep.json');
    const text = readFileSync(grid, 'utf8');
    writeFileSync(userGrid, text);
    writeFileSync(join(dir, 'results.csv'), 'mine\n');
    const before = filesIn(dir);
    const r = await parl(['sweep', '--grid', userGrid, '--out', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`parl sweep: --out ${dir} holds sweep.json, which parl sweep did not write (is it your grid file?): nothing was changed; choose a new folder for the sweep\n`);
    expect(filesIn(dir)).toEqual(before);
    expect(readFileSync(userGrid, 'utf8')).toBe(text);
    expect(readFileSync(join(dir, 'results.csv'), 'utf8')).toBe('mine\n');
    // A file in place of the folder is refused too.
    const file = join(dir, 'plain');
    writeFileSync(file, 'x');
    const r3 = await parl(['sweep', '--grid', grid, '--out', file]);
    expect(r3.code).toBe(2);
    expect(r3.stderr).toMatch(/is a file, not a folder/);
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  it('fails every run, naming the address, when the queue\'s Redis does not answer', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const grid = writeTinyGrid(dir);
    const r = await parl(['sweep', '--grid', grid, '--out', join(dir, 'sweep'), '--queue', 'redis://127.0.0.1:1', '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^parl sweep: 4 of 4 runs failed \(first: [0-9a-f]{16}: cannot reach Redis at redis:\/\/127\.0\.0\.1:1 within 10 s\); the others are in /);
    expect(readFileSync(join(dir, 'sweep', 'results.csv'), 'utf8').trim().split('\n')).toHaveLength(1);
  });
});
