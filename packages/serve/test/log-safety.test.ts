/**
 * The episode log fails safe (issue 24 items 1 and 2): a write cut by the file-size limit
 * (RLIMIT_FSIZE set with `ulimit -f` on a real server process) is cut back off the file and its
 * request answered 503, so the next acknowledged entry starts on a line of its own; `--log` is
 * checked before anything is written: a file that is not an episode log (a file of records), a
 * folder or a file in a missing folder is refused and left as it is, and of a real log only a
 * torn last entry is repaired, with a warning.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ParlInputError } from '@parl/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createParlServer } from '../src/index.js';
import { startServer } from './support/server.js';

const CHILD = fileURLToPath(new URL('./support/serve-child.mjs', import.meta.url));
const dirs: string[] = [];
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parl-log-safety-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const HEADER = '{"t":"parl-episode-log","v":1}';

async function post(url: string, body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${url}/v1/rewards`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, text: await res.text() };
}

describe('a failed episode-log write (RLIMIT_FSIZE on a real server process)', () => {
  it('answers 503, cuts the partial entry back off, and the next acknowledged entries are whole and replayed', async () => {
    const dir = scratch();
    const log = join(dir, 'episodes.jsonl');
    // 16 blocks of 1024 bytes: bash's ulimit -f sets RLIMIT_FSIZE for the server alone.
    const child = spawn('bash', ['-c', `ulimit -f 16 && exec "${process.execPath}" "${CHILD}" "${log}" always`], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
        child.once('exit', (code) => reject(new Error(`the server exited (${String(code)})`)));
      });
      expect((await post(url, JSON.stringify([{ id: 'first', r_perf: 1 }]))).status).toBe(200);
      // 40 KiB of records: more than the 16 KiB the process may write, so the write is cut short.
      const big = JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: `big-${i}`, r_perf: 0.5, note: 'x'.repeat(60) })));
      const failed = await post(url, big);
      expect(failed.status).toBe(503);
      expect(JSON.parse(failed.text).error).toMatch(/episode log could not be written \(EFBIG/);
      const after = ['after-1', 'after-2', 'after-3'];
      for (const id of after) expect((await post(url, JSON.stringify([{ id, r_perf: 0.25 }]))).status).toBe(200);
      const metrics = await (await fetch(`${url}/metrics`)).text();
      expect(metrics).toMatch(/^parl_episode_log_failed_writes 1$/m);
      const lines = readFileSync(log, 'utf8').split('\n');
      expect(lines.pop()).toBe('');
      expect(lines[0]).toBe(HEADER);
      // Every line is a whole entry: nothing of the failed write is left.
      const ids = lines.slice(1).map((l) => (JSON.parse(l) as { id: string }).id);
      expect(ids).toEqual(['first', ...after]);
    } finally {
      child.kill('SIGKILL');
    }
    const again = await createParlServer({ port: 0, logFile: log, labelThreads: 0 });
    try {
      for (const id of ['first', 'after-1', 'after-2', 'after-3']) expect(again.service.store.get(id)).toBeDefined();
      expect(again.service.store.get('big-0')).toBeUndefined();
    } finally {
      await again.close();
    }
  });
});

describe('--log checks (issue 24 item 2)', () => {
  it('refuses a file of records, untouched, naming the file', async () => {
    const dir = scratch();
    const records = join(dir, 'episodes.jsonl');
    const text = '{"id":"a","num_subagents":3,"r_perf":1}\n{"id":"b","r_perf":0.5}\n{"id":"c","r_perf":0.5,"partial":';
    writeFileSync(records, text);
    const err = await createParlServer({ port: 0, logFile: records, labelThreads: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParlInputError);
    expect((err as ParlInputError).field).toBe('logFile');
    expect((err as ParlInputError).message).toMatch(/PARL episode log/);
    expect(readFileSync(records, 'utf8')).toBe(text);
  });

  it('leaves no log file behind when the server cannot start (a busy port), and keeps a log it did not create', async () => {
    const dir = scratch();
    const busy = await createParlServer({ port: 0, labelThreads: 0 });
    try {
      const port = Number(new URL(busy.url).port);
      const fresh = join(dir, 'new-episodes.jsonl');
      const err = await createParlServer({ port, logFile: fresh, labelThreads: 0 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ParlInputError);
      expect((err as ParlInputError).field).toBe('port');
      expect(existsSync(fresh)).toBe(false);
      // A log that was there before (here: made by a server that started) is kept as it was.
      const first = await createParlServer({ port: 0, logFile: fresh, labelThreads: 0 });
      await first.close();
      const before = readFileSync(fresh, 'utf8');
      expect(await createParlServer({ port, logFile: fresh, labelThreads: 0 }).catch((e: unknown) => e)).toBeInstanceOf(ParlInputError);
      expect(readFileSync(fresh, 'utf8')).toBe(before);
    } finally {
      await busy.close();
    }
  });

  it('refuses a folder and a file in a missing folder', async () => {
    const dir = scratch();
    mkdirSync(join(dir, 'folder'));
    for (const [path, why] of [
      [join(dir, 'folder'), /not a folder/],
      [join(dir, 'missing', 'episodes.jsonl'), /does not exist/],
    ] as const) {
      const err = await createParlServer({ port: 0, logFile: path, labelThreads: 0 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ParlInputError);
      expect((err as ParlInputError).message).toMatch(why);
    }
  });

  it('starts a new log with the header, cuts only a torn last entry of a real log and says so, and adds a missing final newline', async () => {
    const dir = scratch();
    const s = await startServer({ labelThreads: 0 }, dir);
    expect((await s.post('/v1/rewards', '[{"id":"kept","r_perf":1}]')).status).toBe(200);
    await s.server.close();
    const whole = readFileSync(s.logFile, 'utf8');
    expect(whole.startsWith(`${HEADER}\n`)).toBe(true);
    // A torn last entry: cut, with a warning.
    writeFileSync(s.logFile, `${whole}{"t":"reward","id":"torn","rec`);
    const warnings: string[] = [];
    const second = await createParlServer({ port: 0, logFile: s.logFile, labelThreads: 0, onWarning: (w) => warnings.push(w) });
    await second.close();
    expect(warnings).toEqual([expect.stringMatching(/torn last entry of 30 bytes .* was cut off/)]);
    expect(readFileSync(s.logFile, 'utf8')).toBe(whole);
    // A whole last entry without its newline: kept, the newline added.
    const entry = '{"t":"reward","id":"no-newline","record":{"r_perf":0.5}}';
    writeFileSync(s.logFile, `${whole}${entry}`);
    warnings.length = 0;
    const third = await createParlServer({ port: 0, logFile: s.logFile, labelThreads: 0, onWarning: (w) => warnings.push(w) });
    try {
      expect(warnings).toEqual([expect.stringMatching(/lacked the final newline/)]);
      expect(third.service.store.get('no-newline')).toBeDefined();
      expect(third.service.store.get('kept')).toBeDefined();
    } finally {
      await third.close();
    }
    expect(readFileSync(s.logFile, 'utf8')).toBe(`${whole}${entry}\n`);
  });

  it('still replays a log written before the header existed', async () => {
    const dir = scratch();
    const log = join(dir, 'old.jsonl');
    writeFileSync(log, '{"t":"reward","id":"old","record":{"r_perf":0.5}}\n');
    const s = await createParlServer({ port: 0, logFile: log, labelThreads: 0 });
    try {
      expect(s.service.store.get('old')).toBeDefined();
    } finally {
      await s.close();
    }
  });
});
