/**
 * The `parl swarm` commands' flags, from `@parl/swarm/options` (the option tables, declared once
 * there; a small module with core only, read synchronously for help). The command module, and
 * with it `@parl/swarm` and the AI SDK, loads only when a swarm command runs.
 *
 * @module
 */
import { createRequire } from 'node:module';
import { ParlInputError, type OptionTable } from '@parl/core';
import { Command } from 'commander';
import { addOptionFlags, optionsFromFlags } from './option-flags.js';
import type * as SwarmOptionsModule from '@parl/swarm/options';
import { CliError } from './errors.js';
import { installHint } from './simulator.js';
import type { CliIo } from './io/cli-io.js';

/** The line that tells a user how to add the swarm runtime. */
export const INSTALL_SWARM_HINT = installHint('@parl/swarm');

/** Flags every swarm command needs. */
const REQUIRED_FLAGS = new Set(['model']);

/** The swarm's option tables (`@parl/swarm/options`), or undefined when `@parl/swarm` is not installed. */
export function swarmOptions(): typeof SwarmOptionsModule | undefined {
  try {
    return createRequire(import.meta.url)('@parl/swarm/options') as typeof SwarmOptionsModule;
  } catch {
    return undefined;
  }
}

/** Commander flags from a table (the shared wiring), `--model` required (`--base-url` too unless the models are scripted: the runtime names it). */
function addSwarmFlags<C>(cmd: Command, table: OptionTable<C>): Command {
  addOptionFlags(cmd, table);
  for (const option of cmd.options) if (option.long !== undefined && REQUIRED_FLAGS.has(option.long.slice(2))) option.makeOptionMandatory();
  return cmd;
}

/** The table's options from the flags given. */
function tableOptions<C>(cmd: Command, table: OptionTable<C>): C {
  try {
    return optionsFromFlags(cmd, table);
  } catch (err) {
    // The tables' parsers come from the CommonJS build of core (loaded with require, for help):
    // their errors are the same class from the other build.
    if (err instanceof Error && !(err instanceof ParlInputError) && err.name === 'ParlInputError') {
      const e = err as ParlInputError;
      throw new ParlInputError(e.field, e.value, e.expected, e.location, e.code);
    }
    throw err;
  }
}

/** `parl swarm` with its `run` and `eval` subcommands (a stub saying how to install `@parl/swarm` when it is missing). */
export function swarmProgram(io: CliIo): Command {
  const cmd = new Command('swarm').description('Run the Agent Swarm (spec §10) on an OpenAI-compatible endpoint: rollouts for training (run) and latency to target against a single agent (eval)');
  const tables = swarmOptions();
  const run = new Command('run').description('Run tasks × group size episodes; write rollout lines (spec §5 records with group_id, sample, GRPO advantage, messages)');
  const evaluate = new Command('eval').description('Run each task with the swarm and with a single agent; print r_perf, critical steps, sub-agents, finish rate and latency to target');
  if (tables === undefined) {
    for (const sub of [run, evaluate]) sub.allowUnknownOption().allowExcessArguments().action(() => {
      throw new CliError(`parl swarm needs @parl/swarm: ${INSTALL_SWARM_HINT}`, 1);
    });
  } else {
    addSwarmFlags(run, tables.SWARM_RUN_OPTIONS).action(async () => (await import('./commands/swarm.js')).swarmRunCommand(io, tableOptions(run, tables.SWARM_RUN_OPTIONS)));
    addSwarmFlags(evaluate, tables.SWARM_EVAL_OPTIONS).action(async () => (await import('./commands/swarm.js')).swarmEvalCommand(io, tableOptions(evaluate, tables.SWARM_EVAL_OPTIONS)));
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
