/**
 * The `parl swarm` commands' flags, from `@parl/swarm/options` (the option tables, declared once
 * there; a small module read synchronously for help). The command module, and with it
 * `@parl/swarm` and the AI SDK, loads only when a swarm command runs.
 *
 * @module
 */
import { Command } from 'commander';
import { addOptionFlags, optionsFromFlags } from './option-flags.js';
import { installHint, loadOptional, notInstalled } from '../optional-packages.js';
import type { CliIo } from '../terminal/cli-io.js';

/**
 * `parl swarm` with its `run` and `eval` subcommands (saying how to install `@parl/swarm` when it
 * is missing).
 *
 * @param load - whether to read `@parl/swarm/options` (runCli: only when the command line names `swarm`)
 */
export function swarmProgram(io: CliIo, load: (command: string) => boolean = () => true): Command {
  const cmd = new Command('swarm').description('Run the Agent Swarm (spec §10) on an OpenAI-compatible endpoint: rollouts for training (run) and latency to target against a single agent (eval)');
  const run = new Command('run').description('Run tasks × group size episodes; write rollout lines (spec §5 records with group_id, sample, GRPO advantage, messages)');
  const evaluate = new Command('eval').description('Run each task with the swarm and with a single agent; print r_perf, critical steps, sub-agents, finish rate and latency to target');
  const tables = load('swarm') ? loadOptional('@parl/swarm') : undefined;
  if (load('swarm') && tables === undefined) {
    cmd.description(`${cmd.description()} (needs @parl/swarm: ${installHint('@parl/swarm')})`);
    for (const sub of [run, evaluate]) {
      sub.allowUnknownOption().allowExcessArguments().action(() => {
        throw notInstalled('@parl/swarm', `swarm ${sub.name()}`);
      });
    }
  } else if (tables !== undefined) {
    addOptionFlags(run, tables.SWARM_RUN_OPTIONS).action(async () => (await import('./commands/swarm.js')).swarmRunCommand(io, optionsFromFlags(run, tables.SWARM_RUN_OPTIONS)));
    addOptionFlags(evaluate, tables.SWARM_EVAL_OPTIONS).action(async () => (await import('./commands/swarm.js')).swarmEvalCommand(io, optionsFromFlags(evaluate, tables.SWARM_EVAL_OPTIONS)));
  }
  for (const sub of [run, evaluate]) {
    cmd.addCommand(
      sub
        .helpOption('-h, --help', 'show this help')
        .exitOverride()
        .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
        .showSuggestionAfterError(),
    );
  }
  return cmd;
}
