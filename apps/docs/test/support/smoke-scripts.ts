/**
 * What "its entry points import and run" means for each published package: a short ESM script,
 * run with plain `node` in the folder the tarballs were installed into, that imports the package
 * by name, calls it on real input and prints one JSON line for the test to check.
 */
export interface SmokeScript {
  /** The package the script imports. */
  readonly packageName: string;
  /** ESM source run with `node --input-type=module`. */
  readonly source: string;
  /** Checks the parsed JSON the script printed; returns a problem or undefined. */
  readonly check: (printed: Record<string, unknown>) => string | undefined;
}

/** The smoke script of every published package, by npm name. */
export const SMOKE_SCRIPTS: Readonly<Record<string, SmokeScript>> = {
  '@parl/core': {
    packageName: '@parl/core',
    source: `
      import { computeReward, criticalSteps } from '@parl/core';
      const reward = computeReward({ num_subagents: 25, completed_subtasks: 20, success: true, quality: 0.8, training_step: 5000 });
      const cs = criticalSteps([{ main_steps: 1, sub_steps: [3, 5, 2] }, { main_steps: 1 }]);
      console.log(JSON.stringify({ total_reward: reward.total_reward, critical_steps: cs.critical_steps }));
    `,
    check: (p) =>
      Math.abs((p.total_reward as number) - 0.8525) < 1e-12 && p.critical_steps === 7 ? undefined : `expected total_reward 0.8525 and critical_steps 7, got ${JSON.stringify(p)}`,
  },
  '@parl/gpu': {
    packageName: '@parl/gpu',
    source: `
      import { initBackend } from '@parl/gpu';
      const selection = await initBackend({ order: ['wasm', 'cpu'] });
      console.log(JSON.stringify({ backend: selection.backend }));
    `,
    check: (p) => (p.backend === 'wasm' || p.backend === 'cpu' ? undefined : `expected the wasm or cpu backend, got ${JSON.stringify(p)}`),
  },
  '@parl/serve': {
    packageName: '@parl/serve',
    // A server on a free loopback port, one reward request, then a graceful close.
    source: `
      import { createParlServer, ParlServeClient } from '@parl/serve';
      const server = await createParlServer({ port: 0 });
      const [labelled] = await new ParlServeClient({ url: server.url }).rewards([{ num_subagents: 25, completed_subtasks: 20, success: true, quality: 0.8, training_step: 5000 }]);
      await server.close();
      console.log(JSON.stringify({ total_reward: labelled.total_reward }));
    `,
    check: (p) => (Math.abs((p.total_reward as number) - 0.8525) < 1e-12 ? undefined : `expected total_reward 0.8525, got ${JSON.stringify(p)}`),
  },
  '@parl/io': {
    packageName: '@parl/io',
    // The labelling engine on a JSONL stream, in this thread: one record in, one labelled line out.
    source: `
      import { Readable, PassThrough } from 'node:stream';
      import { labelStream } from '@parl/io';
      const stdout = new PassThrough();
      let text = '';
      stdout.on('data', (chunk) => { text += chunk; });
      const stdin = Readable.from(['{"num_subagents": 25, "completed_subtasks": 20, "success": true, "quality": 0.8, "training_step": 5000}\\n']);
      const summary = await labelStream('reward', {}, { stdin, stdout, stderr: new PassThrough() }, { command: 'reward', config: {} });
      console.log(JSON.stringify({ written: summary.records_written, total_reward: JSON.parse(text.trim()).total_reward }));
    `,
    check: (p) => (p.written === 1 && Math.abs((p.total_reward as number) - 0.8525) < 1e-12 ? undefined : `expected one record with total_reward 0.8525, got ${JSON.stringify(p)}`),
  },
  '@parl/swarm': {
    packageName: '@parl/swarm',
    // An offline task suite from a seed, scored against its own answer and a wrong one.
    source: `
      import { generateSuite } from '@parl/swarm';
      const tasks = generateSuite('wide', { tasks: 3, seed: 1 });
      const wrong = await tasks[0].score('nothing');
      console.log(JSON.stringify({ tasks: tasks.length, kinds: tasks.map((t) => t.kind), wrong: wrong.r_perf, scorer: wrong.scorer }));
    `,
    check: (p) => (p.tasks === 3 && p.wrong === 0 && p.scorer === 'table' ? undefined : `expected 3 wide tasks and r_perf 0 (scorer table) for a wrong answer, got ${JSON.stringify(p)}`),
  },
  '@parl/traces': {
    packageName: '@parl/traces',
    // An OpenAI Agents SDK export: a planner whose first turn launches two sub-agents at once.
    source: `
      import { readTraces } from '@parl/traces';
      const t = (s) => '2025-06-01T12:00:0' + s + '.000Z';
      const span = (id, parent, type, name, from, to) => JSON.stringify({ object: 'trace.span', id, trace_id: 't1', parent_id: parent,
        started_at: t(from), ended_at: t(to), span_data: name ? { type, name } : { type }, error: null });
      const lines = [
        JSON.stringify({ object: 'trace', id: 't1', workflow_name: 'smoke' }),
        span('plan', null, 'agent', 'planner', 0, 5), span('g1', 'plan', 'generation', '', 0, 1),
        span('f1', 'plan', 'function', 'a', 1, 3), span('a', 'f1', 'agent', 'a', 1, 3), span('a1', 'a', 'generation', '', 1, 3),
        span('f2', 'plan', 'function', 'b', 1, 2), span('b', 'f2', 'agent', 'b', 1, 2), span('b1', 'b', 'generation', '', 1, 2),
        span('g2', 'plan', 'generation', '', 4, 5),
      ];
      const results = [];
      for await (const r of readTraces([lines.join('\\n') + '\\n'])) results.push(r);
      console.log(JSON.stringify({ traces: results.length, format: results[0].format, stages: results[0].record.stages }));
    `,
    check: (p) => {
      const stages = p.stages as { sub_steps?: unknown[] }[] | undefined;
      return p.traces === 1 && stages?.[0]?.sub_steps?.length === 2 ? undefined : `expected one trace whose first stage launches 2 sub-agents, got ${JSON.stringify(p)}`;
    },
  },
  '@parl/sim': {
    packageName: '@parl/sim',
    // The always-serial and the max-parallel scripted policies on the same 16 simulated tasks.
    source: `
      import { criticalSteps } from '@parl/core';
      import { DEFAULT_ENV_CONFIG, episodeSeeds, runEpisodes, scriptedPolicy } from '@parl/sim';
      const seeds = Array.from({ length: 16 }, (_, i) => episodeSeeds(7, i));
      const mean = (name) => {
        const records = runEpisodes(DEFAULT_ENV_CONFIG, scriptedPolicy(name), seeds, { greedy: true });
        return records.reduce((s, r) => s + criticalSteps(r.stages).critical_steps, 0) / records.length;
      };
      console.log(JSON.stringify({ serial: mean('serial'), parallel: mean('max-parallel') }));
    `,
    check: (p) =>
      typeof p.serial === 'number' && typeof p.parallel === 'number' && p.parallel < p.serial
        ? undefined
        : `expected the max-parallel policy to need fewer critical steps than the serial one, got ${JSON.stringify(p)}`,
  },
  '@parl/cli': {
    packageName: '@parl/cli',
    // The library entry point, and the bin it declares, labelling one JSONL record.
    source: `
      import { spawnSync } from 'node:child_process';
      import { createRequire } from 'node:module';
      import { dirname, join } from 'node:path';
      import { runCli } from '@parl/cli';
      const require = createRequire(import.meta.url);
      const manifest = require.resolve('@parl/cli/package.json');
      const bin = join(dirname(manifest), require(manifest).bin.parl);
      const done = spawnSync(process.execPath, [bin, 'reward', '--step', '5000'], {
        input: JSON.stringify({ num_subagents: 25, completed_subtasks: 20, success: true, quality: 0.8 }) + '\\n', encoding: 'utf8',
      });
      const labelled = JSON.parse(done.stdout.trim());
      console.log(JSON.stringify({ runCli: typeof runCli, status: done.status, total_reward: labelled.total_reward }));
    `,
    check: (p) =>
      p.runCli === 'function' && p.status === 0 && Math.abs((p.total_reward as number) - 0.8525) < 1e-12
        ? undefined
        : `expected runCli to be a function and parl reward to print total_reward 0.8525, got ${JSON.stringify(p)}`,
  },
};
