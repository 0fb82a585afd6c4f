/**
 * `parl swarm` as a new user meets it, over real HTTP (a scripted OpenAI-compatible endpoint of
 * test support) and the built `parl` bin: eval at its default task count and with every command
 * line docs/swarm.md shows, outputs checked before any episode, flags named in every error,
 * Ctrl-C that says what is done and leaves files a rerun resumes.
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChatEndpoint, type ChatEndpoint } from '@parl/test-support/chat-endpoint';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { readTraces } from '@parl/traces';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, requireBuiltBin } from './support/bin.js';
import { parl } from './support/memory-io.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

let dir: TempDir;
let endpoint: ChatEndpoint;

beforeAll(async () => {
  dir = await makeTempDir('cli-swarm-files');
  endpoint = await startChatEndpoint();
});
afterAll(async () => {
  await endpoint?.close();
  await dir?.remove();
});

/** The `parl swarm eval` command lines of docs/swarm.md's shell blocks, as words (continuations joined). */
async function documentedEvalLines(): Promise<string[][]> {
  const text = await readFile(join(REPO_ROOT, 'docs/swarm.md'), 'utf8');
  const lines: string[][] = [];
  for (const block of text.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)) {
    const joined = (block[1] as string).replace(/\\\n\s*/g, ' ');
    for (const line of joined.split('\n')) {
      const m = line.replace(/#.*$/, '').trim().match(/^parl swarm eval (.*)$/);
      if (m !== null) lines.push((m[1] as string).split(/\s+/));
    }
  }
  return lines;
}

/** Run the built bin without blocking this process (the endpoint answers from it). */
async function runBin(args: readonly string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  requireBuiltBin();
  const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  return { code, stdout, stderr };
}

/** `words` with the endpoint's URL for `--base-url`. */
/** The repository (a documented `--tasks-file examples/…` is read from there). */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** A documented command line on the test's endpoint: its endpoints (the judge's too) are the scripted one, its example files the repository's. */
function onEndpoint(words: readonly string[]): string[] {
  return words.map((w, i) => {
    const flag = words[i - 1];
    if (flag === '--base-url' || flag === '--judge-base-url') return endpoint.baseURL;
    if (flag === '--tasks-file' && !w.startsWith('/')) return join(REPO, w);
    return w;
  });
}

describe('parl swarm eval', () => {
  it('runs at its default task count (10): JSON with the serial-collapse count, exit 0', async () => {
    const r = await parl(['swarm', 'eval', '--base-url', endpoint.baseURL, '--model', 'm']);
    expect(r.stderr).toMatch(/^parl swarm eval: r_perf /);
    expect(r.code).toBe(0);
    const evaluation = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(evaluation).toMatchObject({ tasks: 10, serial_collapse: expect.any(Number) });
    expect((evaluation['records'] as { swarm: unknown[] }).swarm).toHaveLength(10);
  }, 120_000);

  it('runs every command line docs/swarm.md shows for it', async () => {
    const lines = await documentedEvalLines();
    expect(lines.length).toBeGreaterThan(0);
    for (const [i, words] of lines.entries()) {
      const cwd = join(dir.path, `doc-eval-${i}`);
      await mkdir(cwd);
      const r = await runBin(['swarm', 'eval', ...onEndpoint(words)], cwd);
      expect(r.stderr, words.join(' ')).toMatch(/^parl swarm eval: r_perf /);
      expect(r.code, words.join(' ')).toBe(0);
      if (words.includes('--report')) {
        const report = await readFile(join(cwd, words[words.indexOf('--report') + 1] as string), 'utf8');
        expect(report).toMatch(/^<!doctype html>/);
      }
    }
  }, 240_000);

  it('a report where no target was reached draws no chart and says so in a sentence', async () => {
    const report = join(dir.path, 'no-target.html');
    const r = await parl(['swarm', 'eval', '--base-url', endpoint.baseURL, '--model', 'm', '--tasks', '2', '--report', report, '--out', join(dir.path, 'no-target.json')]);
    expect(r.code).toBe(0);
    const html = await readFile(report, 'utf8');
    expect(html).toMatch(/<p class="lead" id="no-target">Neither the swarm nor the single agent reached any r_perf target \(0\.3, 0\.5, 0\.7, 0\.9\): their mean r_perf was 0 and 0, so there is no latency-to-target curve to draw\./);
    expect(html).not.toContain('<canvas');
    expect(html).toContain('<script type="application/json" id="parl-charts">[]</script>');
  }, 60_000);

  it('--out and --report are checked before any episode: a file of another kind is refused and kept', async () => {
    const notes = join(dir.path, 'notes.txt');
    await writeFile(notes, 'keep me\n');
    const before = endpoint.requests.length;
    for (const flag of ['--out', '--report']) {
      const r = await parl(['swarm', 'eval', '--base-url', endpoint.baseURL, '--model', 'm', '--tasks', '2', flag, notes]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`parl swarm eval: ${flag} must be a new file or `);
      expect(r.stderr).toContain(`which ${notes} is not`);
    }
    const same = join(dir.path, 'same.json');
    const r = await parl(['swarm', 'eval', '--base-url', endpoint.baseURL, '--model', 'm', '--out', same, '--report', same]);
    expect(r.stderr).toMatch(/--report must be a path no other output uses \(--out writes .*same\.json too\)/);
    expect(endpoint.requests.length).toBe(before);
    expect(await readFile(notes, 'utf8')).toBe('keep me\n');
    // Its own kind is written over: an evaluation, and a report of parl.
    const out = join(dir.path, 'again.json');
    const html = join(dir.path, 'again.html');
    for (let i = 0; i < 2; i++) expect((await parl(['swarm', 'eval', '--base-url', endpoint.baseURL, '--model', 'm', '--tasks', '1', '--out', out, '--report', html])).code).toBe(0);
  }, 60_000);
});

describe('parl swarm run: flags named in every error', () => {
  it('--out in a missing folder or on a folder, --budget 0, --restart without --out: one line naming the flag (exit 2), no episode', async () => {
    await mkdir(join(dir.path, 'a-folder'), { recursive: true });
    const before = endpoint.requests.length;
    const base = ['swarm', 'run', '--base-url', endpoint.baseURL, '--model', 'm', '--tasks', '1'];
    for (const [args, pattern] of [
      [['--out', join(dir.path, 'missing/dir/x.jsonl')], /^parl swarm run: cannot write --out .*missing\/dir\/x\.jsonl: no such file or directory \(the folder .*missing\/dir must exist\)$/],
      [['--out', join(dir.path, 'a-folder')], /^parl swarm run: cannot write --out .*a-folder: is a directory$/],
      [['--budget', '0'], /--budget.*a critical-step budget > 0/],
      [['--restart'], /^parl swarm run: --restart must be used with --out/],
      [['--request-timeout', '0'], /--request-timeout/],
    ] as const) {
      const r = await parl([...base, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr.trim(), args.join(' ')).toMatch(pattern);
    }
    expect(endpoint.requests.length).toBe(before);
  });

  it('--request-timeout is an option row: in help with its default, 120 s', async () => {
    const r = await parl(['swarm', 'run', '--help']);
    expect(r.stdout).toMatch(/--request-timeout <SECONDS>\s+seconds one model or judge request may take(?:(?!\n\s+--)[\s\S])*\(default: 120\)/);
  });
});

describe.sequential('Ctrl-C', () => {
  it('says how many episodes are done and how to resume; the rerun completes the lines and the spans', async () => {
    requireBuiltBin();
    const slow = await startChatEndpoint(undefined, { delayMs: 150 });
    try {
      const cwd = join(dir.path, 'ctrl-c');
      await mkdir(cwd);
      const args = [BIN, 'swarm', 'run', '--base-url', slow.baseURL, '--model', 'm', '--subagents', 'scripted', '--tasks', '6', '--group-size', '2', '--out', 'r.jsonl', '--spans', 'spans.jsonl'];
      const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      // Interrupt once two samples are in the partial file.
      for (;;) {
        const text = await readFile(join(cwd, 'r.jsonl.partial'), 'utf8').catch(() => '');
        if (text.split('\n').length > 2) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      const m = stderr.match(/^parl swarm run: interrupted after (\d+) of 12 episodes; they are in r\.jsonl\.partial and spans\.jsonl\.partial: run the same command again to resume\n$/);
      expect(m, stderr).not.toBeNull();
      const done = Number(m?.[1]);
      expect(done).toBeGreaterThanOrEqual(2);
      const partial = (await readFile(join(cwd, 'r.jsonl.partial'), 'utf8')).trim().split('\n');
      expect(partial).toHaveLength(done);
      for (const line of partial) expect(() => JSON.parse(line) as unknown).not.toThrow();
      expect((await readdir(cwd)).sort()).toEqual(['r.jsonl.partial', 'spans.jsonl.partial']);

      const rerun = await runBin(args.slice(1), cwd);
      expect(rerun.stderr).toMatch(new RegExp(`^parl swarm run: 12 episodes in r\\.jsonl \\(${done} resumed\\), spans in spans\\.jsonl;`));
      expect(rerun.code).toBe(0);
      expect((await readdir(cwd)).sort()).toEqual(['r.jsonl', 'spans.jsonl']);
      expect((await readFile(join(cwd, 'r.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(12);
      let traces = 0;
      for await (const _ of readTraces([await readFile(join(cwd, 'spans.jsonl'), 'utf8')], { onWarning: () => {} })) traces++;
      expect(traces).toBe(12);
    } finally {
      await slow.close();
    }
  }, 120_000);
});
