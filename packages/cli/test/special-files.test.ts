/**
 * Special files and faults from the reliability run: device files, binary data, huge lines,
 * outputs that cannot be written, a process killed with SIGKILL. Each ends with the right output
 * or one line and exit code 1 or 2, and leaves nothing under an output's final name.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, lstatSync, openSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, requireBuiltBin } from './support/bin.js';
import { filesIn, useTempDirs } from '@parl/test-support/temp-dir';

const tempDir = useTempDirs('cli');

/** Run the bin with stdin opened on a file or device (as `parl ARGS < PATH` does). */
function runWithStdinFile(args: readonly string[], path: string): { code: number | null; stdout: string; stderr: string } {
  requireBuiltBin();
  const fd = openSync(path, 'r');
  try {
    const r = spawnSync(process.execPath, [BIN, ...args], { stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    closeSync(fd);
  }
}

function oneLine(stderr: string): void {
  expect(stderr.split('\n').filter((l) => l !== '')).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('special input files', () => {
  it('/dev/null: no records, said once, exit 0', () => {
    const r = runWithStdinFile(['reward'], '/dev/null');
    expect(r).toEqual({ code: 0, stdout: '', stderr: 'parl reward: 0 records read (the input is empty)\n' });
  });

  it('an endless line (/dev/zero, capped by head): one line naming the limit, exit 2, bounded memory', { timeout: 60_000 }, () => {
    if (!existsSync('/dev/zero')) return;
    const r = spawnSync('sh', ['-c', `head -c 300000000 /dev/zero | "${process.execPath}" --max-old-space-size=64 "${BIN}" reward`], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('parl reward: line 1: record must be at most 268435456 bytes long (is this a JSONL file?), got "a line of over 268435456 bytes"\n');
  });

  it('random binary data: every line named, skip accounts for all of them', () => {
    const dir = tempDir();
    const bytes = Buffer.alloc(2_000_000);
    let x = 12345;
    for (let i = 0; i < bytes.length; i++) {
      x = (x * 1103515245 + 12345) >>> 0;
      bytes[i] = x >>> 24;
    }
    if (bytes[0] === 0x5b) bytes[0] = 0;
    writeFileSync(join(dir, 'random.bin'), bytes);
    const failed = runWithStdinFile(['reward'], join(dir, 'random.bin'));
    expect(failed.code).toBe(2);
    oneLine(failed.stderr);
    expect(failed.stderr).toMatch(/^parl reward: line 1: record must be (valid JSON|a line of valid UTF-8 text)/);
    const skipped = runWithStdinFile(['reward', '--on-error', 'skip'], join(dir, 'random.bin'));
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).toBe('');
    expect(skipped.stderr).toMatch(/parl reward: skipped (\d+) of \1 records\n$/);
  });

  it('a 50 MB JSON array on one line is streamed, in a 64 MB heap', { timeout: 120_000 }, () => {
    const dir = tempDir();
    const record = JSON.stringify({ id: 'x', r_perf: 0.5, stages: [{ main_steps: 1, sub_steps: [2, 3] }] });
    const n = Math.ceil(50e6 / (record.length + 1));
    writeFileSync(join(dir, 'array.json'), `[${Array.from({ length: n }, () => record).join(',')}]`);
    const r = spawnSync(process.execPath, ['--max-old-space-size=64', BIN, 'critical-steps', '--in', join(dir, 'array.json'), '--format', 'csv', '--columns', 'critical_steps', '--out', join(dir, 'out.csv')], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.stderr).toMatch(new RegExp(`^parl critical-steps: ${n} records written`));
    expect(r.status).toBe(0);
    expect(filesIn(dir)).toEqual(['array.json', 'out.csv']);
  });

  it('a byte-order mark alone, whitespace alone, or 10^5 blank lines: no records, exit 0', () => {
    const dir = tempDir();
    for (const [name, content] of [['bom', '\ufeff'], ['ws', ' \t\r\n \n'], ['blank', '\n'.repeat(100_000)]] as const) {
      writeFileSync(join(dir, name), content);
      const r = runWithStdinFile(['reward'], join(dir, name));
      expect(r, name).toEqual({ code: 0, stdout: '', stderr: 'parl reward: 0 records read (the input is empty)\n' });
    }
  });
});

describe('faults while writing', () => {
  it('an output on a read-only or missing place: one line naming the path, nothing written', () => {
    for (const out of ['/proc/parl-out.jsonl', '/nonexistent-dir/out.jsonl']) {
      const r = spawnSync(process.execPath, [BIN, 'reward', '--out', out], { input: '{"r_perf":1}\n', encoding: 'utf8' });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^parl reward: cannot write --out ${out.replace(/[.]/g, '\\.')}: `));
      oneLine(r.stderr);
    }
    const dir = tempDir();
    const config = join(dir, 'short.json');
    writeFileSync(config, JSON.stringify({ reward: { lambda1: 'constant:0.1', lambda2: 'constant:0.1' }, tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 4 } }));
    const train = spawnSync(process.execPath, [BIN, 'train', '--steps', '1', '--config', config, '--quiet', '--out', '/proc/parl-run'], { encoding: 'utf8', timeout: 60_000 });
    expect(train.status).toBe(1);
    expect(train.stderr).toMatch(/^parl train: cannot write run folder \/proc\/parl-run: /);
    oneLine(train.stderr);
  });

  it('SIGKILL mid-write: the output never appears under its final name', { timeout: 60_000 }, async () => {
    requireBuiltBin();
    const dir = tempDir();
    const line = `${JSON.stringify({ id: 'x', r_perf: 0.5, stages: [{ main_steps: 1, sub_steps: [2, 3, 4] }] })}\n`;
    writeFileSync(join(dir, 'big.jsonl'), line.repeat(400_000));
    const child = spawn(process.execPath, [BIN, 'reward', '--in', join(dir, 'big.jsonl'), '--out', join(dir, 'out.jsonl')]);
    const deadline = Date.now() + 20_000;
    while (!filesIn(dir).some((f) => f.endsWith('.tmp')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));
    // SIGKILL cannot be caught: the hidden temp file may stay, the final name never holds a partial file.
    expect(filesIn(dir).filter((f) => !f.endsWith('.tmp'))).toEqual(['big.jsonl']);
  });
});

describe('outputs that are devices or pipes', () => {
  it('writes --out /dev/null and a named pipe in place, never replacing them with a file', { timeout: 30_000 }, async () => {
    const before = statSync('/dev/null');
    expect(before.isCharacterDevice()).toBe(true);
    const r = spawnSync(process.execPath, [BIN, 'reward', '--out', '/dev/null'], { input: '{"r_perf":1}\n', encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(readdirSync('/dev').filter((f) => f.startsWith('.null.'))).toEqual([]);

    const dir = tempDir();
    const fifo = join(dir, 'pipe');
    if (spawnSync('mkfifo', [fifo]).status !== 0) return;
    const reader = spawn('cat', [fifo]);
    let got = '';
    reader.stdout.on('data', (d: Buffer) => (got += d.toString('utf8')));
    const writer = spawnSync(process.execPath, [BIN, 'reward', '--out', fifo], { input: '{"r_perf":1}\n', encoding: 'utf8' });
    await new Promise((resolve) => reader.on('exit', resolve));
    expect(writer.status).toBe(0);
    expect(got).toMatch(/^\{"r_perf":1,"total_reward":1,/);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(filesIn(dir)).toEqual(['pipe']);
  });
});
