import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { startLocalLlmServer } from '@parl/test-support/local-llm/server';
import { writeTinyGguf } from '@parl/test-support/local-llm/tiny-model';
import { makeTempDir } from '@parl/test-support/temp-dir';
import { describe, expect, it } from 'vitest';
import { EXAMPLES_DIR, REPO_ROOT } from './support/run-example.js';

/** Run a command without blocking this process (the endpoint answers from it). */
function runAsync(args: readonly string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

describe('examples/swarm-local.mjs (the orchestrator on a model you serve)', () => {
  it('runs with plain node from the repository root against an OpenAI-compatible endpoint (the tiny model, real inference) and prints each episode', async () => {
    const dir = await makeTempDir('example-swarm');
    const model = await writeTinyGguf(join(dir.path, 'tiny.gguf'));
    const server = await startLocalLlmServer({ modelPath: model.path, contextSize: 8192 });
    try {
      const result = await runAsync(['examples/swarm-local.mjs', '--base-url', server.baseURL, '--model', server.modelName, '2'], REPO_ROOT);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toContain(`model ${server.modelName} on http://127.0.0.1:`);
      const lines = result.stdout.split('\n').filter((l) => l.startsWith('wide-s1-'));
      expect(lines).toHaveLength(2);
      for (const l of lines) expect(l).toMatch(/: (answer|orchestrator_steps), sub-agents \d+, critical steps \d+ \(total \d+\), r_perf \d\.\d{3}, reward -?\d+\.\d{4}$/);
    } finally {
      await server.close();
      await dir.remove();
    }
  }, 240_000);

  it('without its flags says how to run it (exit code 2)', async () => {
    const result = await runAsync(['swarm-local.mjs'], EXAMPLES_DIR);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^usage: node swarm-local\.mjs --base-url URL --model NAME \[TASKS\]/);
  });

  it('serve-tiny-model.mjs (the documented way to get a model in a checkout) writes the file, serves it and prints the flags', async () => {
    const dir = await makeTempDir('example-tiny');
    try {
      const tsx = join(dirname(createRequire(join(EXAMPLES_DIR, 'package.json')).resolve('tsx/package.json')), 'dist', 'cli.mjs');
      const child = spawn(process.execPath, [tsx, 'serve-tiny-model.mjs', join(dir.path, 'tiny.gguf')], { cwd: EXAMPLES_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      while (!stdout.includes('--model') && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
      const flags = stdout.match(/^--base-url (\S+) --model (\S+)$/m);
      expect(flags, stdout).not.toBeNull();
      const reply = await fetch(`${flags?.[1]}/models`).then((r) => r.json() as Promise<{ data: { id: string }[] }>);
      expect(reply.data.map((m) => m.id)).toEqual([flags?.[2]]);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      await dir.remove();
    }
  }, 120_000);
});
