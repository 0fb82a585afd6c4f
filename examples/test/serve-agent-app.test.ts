/**
 * examples/serve-agent-app.mjs against a real `parl serve` (the workspace's CLI, a child process on
 * loopback): the app exports its spans with the OpenTelemetry SDK's OTLP exporters (protobuf and
 * JSON), the server makes an episode of them, and the reward the app gets for its outcome is
 * @parl/core's `labelReward` of the episode's record with that outcome.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { criticalSteps, labelReward } from '@parl/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES_DIR, PARL_BIN } from './support/run-example.js';

const TOKEN = 'agent-app-token';
let server: ChildProcess;
let url: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parl-agent-app-'));
  server = spawn(process.execPath, [PARL_BIN, 'serve', '--port', '0', '--log', join(dir, 'episodes.jsonl'), '--quiet-period', '100'], {
    env: { ...process.env, PARL_SERVE_TOKEN: TOKEN },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  url = await new Promise<string>((resolve, reject) => {
    let err = '';
    server.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(err);
      if (m?.[1] !== undefined) resolve(m[1]);
    });
    server.once('exit', (code) => reject(new Error(`parl serve exited ${code} before listening:\n${err}`)));
  });
}, 60_000);

afterAll(async () => {
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

interface AppOutput {
  rollout: string;
  traceId: string;
  protocol: string;
  spans: number;
  outcome: { success: boolean; quality: number; training_step: number };
  labelled: Record<string, unknown>;
}

/** Run the example (asynchronously), pointed at the server with the standard OTel variables. */
function runApp(rollout: string, protocol: string): Promise<AppOutput> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['serve-agent-app.mjs', rollout],
      {
        cwd: EXAMPLES_DIR,
        env: { ...process.env, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${url}/v1/traces`, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol, PARL_SERVE_TOKEN: TOKEN },
        timeout: 60_000,
      },
      (err, stdout, stderr) => {
        if (err !== null) reject(new Error(`serve-agent-app.mjs failed: ${err.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as AppOutput);
      },
    );
  });
}

async function get(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('examples/serve-agent-app.mjs (OpenTelemetry SDK → OTLP → parl serve → reward)', () => {
  for (const protocol of ['http/protobuf', 'http/json']) {
    it(`exports its spans over ${protocol} and gets labelReward of its episode's record with the outcome`, async () => {
      const rollout = `agent-app-${protocol.replace('/', '-')}`;
      const out = await runApp(rollout, protocol);
      expect(out.rollout).toBe(rollout);
      // 1 root + plan + 3 × (sub-agent + 2 LLM calls) + write-up.
      expect(out.spans).toBe(12);

      // The episode the server holds, asked by trace id and by rollout id.
      const byTrace = await get(`/v1/episodes/${out.traceId}`);
      expect(byTrace.status).toBe(200);
      expect((await get(`/v1/episodes/${rollout}`)).body['id']).toBe(out.traceId);
      const record = byTrace.body['record'] as { stages: { main_steps: number; sub_steps: unknown[] }[] };
      // The three researchers ran at once: one stage with three sub-agents, no serial collapse.
      expect(record.stages.map((s) => s.sub_steps.length)).toContain(3);
      expect((byTrace.body['finding'] as { serial_collapse: boolean }).serial_collapse).toBe(false);
      const cs = criticalSteps(record.stages as Parameters<typeof criticalSteps>[0]);
    expect(cs.critical_steps).toBeLessThan(cs.total_steps);

      // The reward is core's, on the same record with the same outcome.
      const expected = labelReward({ ...record, ...out.outcome });
      expect(out.labelled).toEqual(expected);
      expect(out.labelled['total_reward']).toBe(expected.total_reward);
      expect(byTrace.body['labelled']).toEqual(expected);
    });
  }
});
