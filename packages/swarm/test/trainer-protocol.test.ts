/**
 * The trainer's side of the protocol, end to end over real HTTP: a gateway per rollout in front
 * of the node-llama-cpp endpoint records token ids as rLLM's does, and a stdlib-only Python
 * script (Debian's /usr/bin/python3) plays the trainer — it starts `parl swarm run` with a URL
 * template and checks the lines' token trajectories and rewards against the gateway's record.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startLocalLlmServer, type LocalLlmServer } from '@parl/test-support/local-llm/server';
import { startTokenGateway, type TokenGateway } from '@parl/test-support/local-llm/token-gateway';
import { writeTinyGguf } from '@parl/test-support/local-llm/tiny-model';
import { findPython } from '@parl/test-support/python';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSuite, type RolloutLine, type SwarmTask } from '../src/index.js';
import { runRollouts } from '../src/rollouts/run-rollouts.js';
import { endpointSettings } from '../src/jobs/episode-settings.js';

const python = findPython();
const PYTHON = python.path ?? '';
const SCRIPT = fileURLToPath(new URL('./trainer-protocol/play_trainer.py', import.meta.url));
const PARL = fileURLToPath(new URL('../../cli/bin/parl.js', import.meta.url));

const skip = python.skipReason;
if (skip !== undefined) console.warn(`trainer-protocol tests skipped: ${skip}`);

let dir: TempDir;
let server: LocalLlmServer;
let gateway: TokenGateway;

beforeAll(async () => {
  dir = await makeTempDir('trainer-protocol');
  const model = await writeTinyGguf(join(dir.path, 'tiny.gguf'));
  // The suites' prompts with their tools' schemas pass 2048 tokens (one per byte).
  server = await startLocalLlmServer({ modelPath: model.path, contextSize: 16384, concurrency: 2 });
  // Each session's first 3 calls must call tools: conversations of several calls, tool results between them.
  gateway = await startTokenGateway({ upstream: server.baseURL, forceToolCalls: 3 });
}, 60_000);
afterAll(async () => {
  await gateway?.close();
  await server?.close();
  await dir?.remove();
});

describe.skipIf(skip !== undefined)('a trainer with a gateway per rollout (Python, stdlib only)', () => {
  it('checks every line\'s token trajectory and reward against what the gateway recorded', async () => {
    const out = join(dir.path, 'rollouts.jsonl');
    const { stdout } = await promisify(execFile)(PYTHON, [SCRIPT, '--parl', `${process.execPath} ${PARL}`, '--gateway', gateway.url, '--model', server.modelName, '--out', out], {
      timeout: 600_000,
    }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`the trainer script failed:\n${err.stdout ?? ''}${err.stderr ?? ''}${err.message}`);
    });
    console.log(stdout.trim());
    expect(stdout).toMatch(/^ok: 2 rollouts, 2 sessions, \d+ orchestrator calls/);
    // What the script checked is there to check: ids, and a mask with the model's tokens in it.
    const lines = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const line of lines) {
      expect((line['prompt_ids'] as number[]).length).toBeGreaterThan(100);
      const mask = line['response_mask'] as number[];
      expect(mask.filter((m) => m === 1).length).toBeGreaterThan(0);
      // Four calls or more, unless the trajectory stopped at a retokenized prompt: tool results (mask 0) between completions.
      if (line['retokenized_at'] === undefined) {
        expect(gateway.sessions.get(line['id'] as string)?.length).toBeGreaterThanOrEqual(4);
        expect(mask.filter((m) => m === 0).length).toBeGreaterThan(0);
      }
    }
  }, 600_000);
});

describe('sub-agents on their own endpoint', () => {
  it('the frozen sub-agents\' calls go to --subagent-base-url with PARL_SUBAGENT_API_KEY, never into a rollout\'s session', async () => {
    const before = gateway.frozenCalls();
    const sessionsBefore = [...gateway.sessions.keys()];
    const [task] = generateSuite('wide', { tasks: 1, seed: 3, entities: 2, attributes: 1 }) as [SwarmTask];
    const env = { PARL_API_KEY: 'orchestrator-key', PARL_SUBAGENT_API_KEY: 'subagent-key' };
    const input = {
      baseUrl: `${gateway.url}/sessions/{rollout_id}/v1`,
      subagentBaseUrl: `${gateway.url}/frozen/v1`,
      model: 'scripted:parallel',
      subagentModel: server.modelName,
      subagents: 'llm' as const,
      concurrency: 2,
      limits: 'default' as const,
      env,
    };
    const lines: RolloutLine[] = [];
    await runRollouts([task], (ref) => ({ ...endpointSettings(input, ref), limits: { orchestrator_steps: 3, subagent_steps: 2 } }), { groupSize: 2, onLine: (l) => { lines.push(l); } });
    // Work less the orchestrator's own steps: the sub-agents' model calls.
    const subSteps = lines.map((l) => (l['total_steps'] as number) - (l['stages'] as { main_steps: number }[]).reduce((n, s) => n + s.main_steps, 0));
    expect(lines.map((l) => l['num_subagents'])).toEqual([2, 2]);
    const made = gateway.frozenCalls() - before;
    expect(made).toBe(subSteps.reduce((a, b) => a + b, 0));
    expect(made).toBeGreaterThanOrEqual(4);
    expect(new Set(gateway.frozenAuthorizations.slice(before))).toEqual(new Set(['Bearer subagent-key']));
    // The scripted orchestrator made no model call: no session was opened.
    expect([...gateway.sessions.keys()]).toEqual(sessionsBefore);
  }, 300_000);
});
