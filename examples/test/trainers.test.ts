/**
 * examples/trainers/: the glue for verl, slime, AReaL, rLLM, ART and Agent Lightning, run as far
 * as it can be without the trainers (none is installable here): each file's conversion, from
 * rollout lines that `parl swarm run` wrote against the tiny model behind a gateway per rollout
 * (test support's, recording token ids as rLLM's does), with Debian's stdlib-only Python; and the
 * Agent Lightning agent (Node) under its environment contract.
 */
import { join } from 'node:path';
import { findPython } from '@parl/test-support/python';
import { startLocalLlmServer, type LocalLlmServer } from '@parl/test-support/local-llm/server';
import { startTokenGateway, type GatewayCall, type TokenGateway } from '@parl/test-support/local-llm/token-gateway';
import { writeTinyGguf } from '@parl/test-support/local-llm/tiny-model';
import { writeTinyModelFolder } from '@parl/test-support/local-llm/tiny-model-folder';
import { makeTempDir, type TempDir } from '@parl/test-support/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { EXAMPLES_DIR, PARL_BIN } from './support/run-example.js';

/** Run a command without blocking this process's event loop (it serves the endpoint and the gateway). */
function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, [...args], { cwd: EXAMPLES_DIR, env, maxBuffer: 64 * 1024 * 1024, timeout: 280_000 }, (err, stdout, stderr) => {
      resolve({ status: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
    });
  });
}

function describeRun(what: string, r: { status: number; stdout: string; stderr: string }): string {
  return `${what} exited ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
}

const python = findPython();
const PYTHON = python.path ?? '';
const hasPython = python.path !== undefined;
if (!hasPython) console.warn(`examples/trainers Python checks skipped: ${python.skipReason}`);

let dir: TempDir;
let server: LocalLlmServer;
let gateway: TokenGateway;

beforeAll(async () => {
  dir = await makeTempDir('example-trainers');
  const model = await writeTinyGguf(join(dir.path, 'tiny.gguf'));
  await writeTinyModelFolder(dir.path);
  server = await startLocalLlmServer({ modelPath: model.path, contextSize: 16384, concurrency: 2 });
  gateway = await startTokenGateway({ upstream: server.baseURL, forceToolCalls: 2 });
}, 60_000);
afterAll(async () => {
  await gateway?.close();
  await server?.close();
  await dir?.remove();
});

const CHECK = `
import json, sys, types
sys.path.insert(0, 'trainers')
from parl_swarm import run_swarm
import verl_agent_loop, slime_generate, areal_agent, rllm_gateway, art_trajectories
gw, model = sys.argv[1], sys.argv[2]
lines = run_swarm(gw + '/sessions/{rollout_id}/v1', model, 'deep', 1, group_size=2, token_trajectories=True,
                  reward_url=gw + '/sessions/{rollout_id}/reward', limits='browsecomp')
line = lines[0]
n = len(line['response_ids'])
# verl's response_length: longer than the response (kept whole), half of it, and none of it.
verl = {str(limit): verl_agent_loop.agent_loop_fields(line, limit) for limit in (n + 7, n // 2, 0)}
sample = slime_generate.fill_sample(types.SimpleNamespace(metadata={'suite': 'deep', 'seed': 1}), line)
art = art_trajectories.trajectory_fields(line)
rllm = rllm_gateway.session_rollout(gw, gw + '/sessions/rllm-1/v1', 'rllm-1', 'deep', 2)
print(json.dumps({
  'lines': lines,
  'verl': verl,
  'slime': {'tokens': sample.tokens, 'response_length': sample.response_length, 'loss_mask': sample.loss_mask, 'log_probs': sample.rollout_log_probs, 'reward': sample.reward},
  'areal': areal_agent.reward_of(line),
  'art': {'messages': art['messages_and_choices'], 'reward': art['reward'], 'histories': len(art['additional_histories']), 'metrics': sorted(art['metrics'])},
  'rllm': {'traces': len(rllm['traces']), 'main_steps': sum(s['main_steps'] for s in rllm['record']['stages']), 'reward': rllm['reward']},
}))
`;

/** A rollout line's trajectory fields (spec §10.4). */
interface TrajectoryLine {
  readonly id: string;
  readonly prompt_ids: number[];
  readonly response_ids: number[];
  readonly response_mask: number[];
  readonly response_logprobs: number[];
  readonly total_reward: number;
  readonly messages: unknown[];
  readonly retokenized_at?: number;
}

/**
 * The trajectory the gateway's record of a session's calls makes (spec §10.4): the first call's
 * prompt; then, per call, the tokens its prompt added (mask 0, log-prob 0) and its completion (mask
 * 1, the endpoint's log-probs); up to a call whose prompt does not extend the conversation.
 */
function trajectoryOfCalls(calls: readonly GatewayCall[]): Pick<TrajectoryLine, 'prompt_ids' | 'response_ids' | 'response_mask' | 'response_logprobs'> {
  const prompt_ids = [...(calls[0]?.prompt_token_ids ?? [])];
  const response_ids: number[] = [];
  const response_mask: number[] = [];
  const response_logprobs: number[] = [];
  let conversation = prompt_ids;
  for (const call of calls) {
    const prompt = call.prompt_token_ids;
    if (conversation.some((id, i) => prompt[i] !== id)) break;
    const added = prompt.slice(conversation.length);
    response_ids.push(...added, ...call.completion_token_ids);
    response_mask.push(...added.map(() => 0), ...call.completion_token_ids.map(() => 1));
    response_logprobs.push(...added.map(() => 0), ...call.logprobs);
    conversation = [...prompt, ...call.completion_token_ids];
  }
  return { prompt_ids, response_ids, response_mask, response_logprobs };
}

describe('examples/trainers', () => {
  it.skipIf(!hasPython)('each Python glue file turns the rollout lines into what its trainer takes, token by token', async () => {
    const result = await run(PYTHON, ['-c', CHECK, gateway.url, server.modelName], { ...process.env, PARL_CMD: `${process.execPath} ${PARL_BIN}`, PARL_POLICY_MODEL: server.modelName });
    expect(result.status, describeRun('python3 (trainers check)', result)).toBe(0);
    const out = JSON.parse(result.stdout) as Record<string, any>;
    const lines = out['lines'] as TrajectoryLine[];
    expect(lines.map((l) => l.id)).toEqual(['deep-s1-0/rollout-0', 'deep-s1-0/rollout-1']);
    const line = lines[0] as TrajectoryLine;
    // The line holds the tokens the endpoint produced, as the gateway recorded them, element by element.
    const calls = gateway.sessions.get(line.id) ?? [];
    expect(calls.length).toBeGreaterThan(0);
    const fromGateway = trajectoryOfCalls(line.retokenized_at === undefined ? calls : calls.slice(0, line.retokenized_at));
    expect({ prompt_ids: line.prompt_ids, response_ids: line.response_ids, response_mask: line.response_mask, response_logprobs: line.response_logprobs }).toEqual(fromGateway);
    const n = line.response_ids.length;
    expect(n).toBeGreaterThan(3);
    expect(line.response_mask.filter((m) => m === 1).length).toBeGreaterThan(0);
    // verl: the trajectory, the response cut to verl's response_length (ids, mask and log-probs alike).
    for (const limit of [n + 7, Math.floor(n / 2), 0]) {
      const kept = Math.min(n, limit);
      expect(out['verl'][String(limit)], `verl response_length ${limit}`).toMatchObject({
        prompt_ids: line.prompt_ids,
        response_ids: line.response_ids.slice(0, kept),
        response_mask: line.response_mask.slice(0, kept),
        response_logprobs: line.response_logprobs.slice(0, kept),
        reward_score: line.total_reward,
      });
    }
    // slime: tokens = prompt + response; the mask and log-probs cover the response.
    expect(out['slime']).toEqual({
      tokens: [...line.prompt_ids, ...line.response_ids],
      response_length: n,
      loss_mask: line.response_mask,
      log_probs: line.response_logprobs,
      reward: line.total_reward,
    });
    expect(out['areal']).toBe(line.total_reward);
    expect(out['art']).toMatchObject({ messages: line.messages, reward: line.total_reward, metrics: ['critical_steps', 'num_subagents', 'r_finish', 'r_parallel', 'r_perf'] });
    // rLLM: the gateway recorded one trace per orchestrator call of the session's rollout.
    const { rllm } = out;
    expect(rllm.traces).toBe(rllm.main_steps);
    expect(rllm.traces).toBeGreaterThan(0);
    // --reward-url reached the gateway for each rollout of the template run.
    for (const l of lines) expect(gateway.rewards.get(l.id)?.length).toBe(1);
  }, 300_000);

  it.skipIf(!hasPython)('with PARL_TOKENIZER, the glue runs token in: exact fields, no retokenized_at, end_reason kept', async () => {
    const check = `
import json, sys
sys.path.insert(0, 'trainers')
from parl_swarm import run_swarm, token_in_from_env
import verl_agent_loop
[line] = run_swarm(sys.argv[1], sys.argv[2], 'wide', 1, subagents='scripted', token_trajectories=True, token_in=token_in_from_env())
verl = verl_agent_loop.agent_loop_fields(line, 10 ** 6)
m = line['messages']
chatml = lambda role, text: [257] + list((role + '\\n' + text).encode()) + [258, 10]
first = chatml('system', m[0]['content']) + chatml('user', m[1]['content']) + [257] + list('assistant\\n'.encode())
print(json.dumps({'first_prompt': line['prompt_ids'] == first, 'retokenized': 'retokenized_at' in line, 'extra': verl['extra_fields'], 'lengths': [len(verl[k]) for k in ('response_ids', 'response_mask', 'response_logprobs')], 'prompt': len(line['prompt_ids'])}))
`;
    const env = { ...process.env, PARL_CMD: `${process.execPath} ${PARL_BIN}`, PARL_TOKENIZER: dir.path, PARL_TOOL_CALL_PARSER: 'hermes', PARL_MAX_MODEL_LEN: '16384' };
    const result = await run(PYTHON, ['-c', check, server.baseURL, server.modelName], env);
    expect(result.status, describeRun('python3 (token in check)', result)).toBe(0);
    const out = JSON.parse(result.stdout) as { first_prompt: boolean; retokenized: boolean; extra: Record<string, unknown>; lengths: number[]; prompt: number };
    // The first prompt is the folder's ChatML template over system and user, tokenized here (a chat endpoint renders its own).
    expect(out.first_prompt).toBe(true);
    expect(out.retokenized).toBe(false);
    expect(out.extra['end_reason']).toBe('answer');
    expect(out.extra['retokenized_at']).toBeNull();
    expect(new Set(out.lengths).size).toBe(1);
    expect(out.lengths[0]).toBeGreaterThan(0);
    expect(out.prompt).toBeGreaterThan(0);
  }, 300_000);

  it('the Agent Lightning agent runs the swarm on the gateway URL it is given and posts its reward event', async () => {
    const env = {
      ...process.env,
      OPENAI_BASE_URL: `${gateway.url}/sessions/agl-rollout-1/v1`,
      OPENAI_API_KEY: 'agl-key',
      AGL_MODEL: server.modelName,
      AGL_TASK_INPUT: JSON.stringify({ suite: 'deep', seed: 3 }),
      AGL_EVENT_URL: `${gateway.url}/sessions/agl-rollout-1/reward`,
    };
    const result = await run(process.execPath, [join(EXAMPLES_DIR, 'trainers', 'agent-lightning-agent.mjs')], env);
    expect(result.status, describeRun('node agent-lightning-agent.mjs', result)).toBe(0);
    const printed = JSON.parse(result.stdout) as { reward: number; critical_steps: number; num_subagents: number };
    expect(gateway.sessions.get('agl-rollout-1')?.length).toBe(printed.critical_steps);
    expect(gateway.rewards.get('agl-rollout-1')).toEqual([{ event_type: 'reward', data: { value: printed.reward, critical_steps: printed.critical_steps, num_subagents: printed.num_subagents } }]);
  }, 300_000);
});
