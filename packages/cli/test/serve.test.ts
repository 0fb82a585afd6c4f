/**
 * `parl serve` as a user runs it: the bin in a child process on loopback. `/v1/rewards` answers
 * the bytes `parl reward` writes for the same records and options; TensorFlow.js and the
 * simulator are never loaded; SIGTERM shuts down gracefully and the log is replayed at the next
 * start; a non-loopback host without a token is refused.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, requireBuiltBin, runBin } from './support/bin.js';
import { useTempDirs } from '@parl/test-support/temp-dir';

const RECORD_LOADS = fileURLToPath(new URL('./support/record-loads.mjs', import.meta.url));
const makeTempDir = useTempDirs('cli');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

/** Start `parl serve ARGS`; resolves with its URL once it prints where it listens. */
function startServe(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  requireBuiltBin();
  const child = spawn(process.execPath, ['--import', RECORD_LOADS, BIN, 'serve', '--port', '0', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m?.[1] !== undefined) resolve({ child, url: m[1], stderr: () => err });
    });
    child.on('exit', (code) => reject(new Error(`parl serve exited ${code}: ${err}`)));
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((r) => child.on('exit', (code) => r(code)));
}

const RECORDS = [
  { id: 'a', training_step: 3333, num_subagents: 7, completed_subtasks: 5, success: true, quality: 0.3 },
  { id: 'b', stages: [{ main_steps: 0.1, sub_steps: [1.7, 2.3] }, { main_steps: 1, sub_steps: [{ steps: 3, finished: false }] }], trajectory_features: [0.1, 0.2, 0.7], success: 1 },
  { id: 'c', num_subagents: 150, r_perf: 0.1 + 0.2 },
];

describe('parl serve', () => {
  it('answers /v1/rewards with the bytes parl reward writes for the same records and options, loading no TensorFlow.js', async () => {
    const dir = makeTempDir();
    const loads = join(dir, 'loads.txt');
    const { child, url } = await startServe(['--log', join(dir, 'episodes.jsonl')], { PARL_LOADS_FILE: loads });
    const ndjson = RECORDS.map((r) => `${JSON.stringify(r)}\n`).join('');
    const flags = ['--lambda1', 'exponential:0.3:0.001:7000', '--max-subagents', '120', '--parallel-shape', 'log', '--budget', '4', '--on-budget', 'truncate'];
    const cli = runBin(['reward', ...flags], { input: ndjson });
    expect(cli.code, cli.stderr).toBe(0);
    const res = await fetch(`${url}/v1/rewards?lambda1=exponential:0.3:0.001:7000&max-subagents=120&parallel-shape=log&budget=4&on-budget=truncate`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: ndjson,
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(cli.stdout);
    const withStep = runBin(['reward', '--step', '20'], { input: ndjson });
    const served = await fetch(`${url}/v1/rewards?training_step=20`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: ndjson });
    expect(await served.text()).toBe(withStep.stdout);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(143);
    const loaded = readFileSync(loads, 'utf8').split('\n');
    expect(loaded.some((u) => u.includes('/serve/dist/index.js'))).toBe(true);
    expect(loaded.filter((u) => u.includes('@tensorflow') || /\/sim\/dist\/index\.js$/.test(u))).toEqual([]);
  });

  it('shuts down on SIGTERM, and the next start replays the episode log', async () => {
    const dir = makeTempDir();
    const log = join(dir, 'episodes.jsonl');
    const first = await startServe(['--log', log]);
    await fetch(`${first.url}/v1/rewards`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(RECORDS) });
    first.child.kill('SIGTERM');
    await exited(first.child);
    expect(first.stderr()).toContain('parl serve: shutting down');
    const second = await startServe(['--log', log]);
    expect(second.stderr()).toContain('3 entries replayed');
    const episode = (await (await fetch(`${second.url}/v1/episodes/b`)).json()) as { labelled: { critical_steps: number } };
    expect(episode.labelled.critical_steps).toBe(0.1 + 2.3 + 1 + 3);
    second.child.kill('SIGTERM');
    await exited(second.child);
  });

  it('refuses a busy port and a --log that is a folder, in a missing folder or not an episode log: exit 2, one line naming the flag (issue 24)', async () => {
    const dir = makeTempDir();
    const { url } = await startServe(['--log', join(dir, 'episodes.jsonl')]);
    const port = new URL(url).port;
    const busy = runBin(['serve', '--port', port, '--no-log']);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toBe(`parl serve: --port must be a free port: ${port} is in use on 127.0.0.1 (another server, often an OpenTelemetry collector on 4318); choose another with --port, or 0 for any free one, got ${port}\n`);
    const records = join(dir, 'records.jsonl');
    writeFileSync(records, '{"id":"a","r_perf":1}\n{"id":"b","r_perf":0.5}\n');
    for (const [log, why] of [
      [dir, /^parl serve: --log must be a file for the episode log, not a folder, got ".*"\n$/],
      [join(dir, 'missing', 'episodes.jsonl'), /^parl serve: --log must be a file in an existing folder \(.*missing does not exist\), got ".*"\n$/],
      [records, /^parl serve: --log must be a PARL episode log .* left as it is; name a new file or an existing log, got ".*"\n$/],
    ] as const) {
      const r = runBin(['serve', '--port', '0', '--log', log]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(why);
    }
    expect(readFileSync(records, 'utf8')).toBe('{"id":"a","r_perf":1}\n{"id":"b","r_perf":0.5}\n');
  });

  it('refuses a non-loopback host without a token (exit code 2, one line naming the fix)', () => {
    const r = runBin(['serve', '--host', '0.0.0.0', '--port', '0', '--no-log']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bearer token: host 0\.0\.0\.0 is reachable from other machines/);
  });
});
