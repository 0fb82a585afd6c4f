/**
 * The `parl` program: its commands and flags (commander), each action a thin call into
 * `commands/`. A command's module is loaded only when it runs, so `parl reward` never loads the
 * simulator or TensorFlow.js, and `--help` starts fast.
 *
 * @module
 */
import { CRITICAL_STEPS_OPTIONS, REWARD_OPTIONS } from '@parl/core';
import { createRequire } from 'node:module';
import { Command, Option } from 'commander';
import { examplesHelp } from './internal/help-examples.js';
import { importOptional, installHint, loadOptional, notInstalled, type OptionalOptionsEntries, type OptionalPackage } from './optional-packages.js';
import { atLeastTwo, nonNegativeNumber } from './internal/flag-values.js';
import { addOptionFlags, optionsFromFlags } from './internal/option-flags.js';
import { RECORD_IO_FLAGS, SIMULATE_OUTPUT_FLAGS, TRACE_FILE_FLAGS, TRACE_OUTPUT_FLAGS } from './internal/record-flags.js';
import type { CliIo } from './terminal/cli-io.js';
import { WORKER_OPTIONS, type RecordRunSummary } from '@parl/io';
import { printSummary } from './internal/summary-output.js';
import { swarmProgram } from './internal/swarm-program.js';

/** The version printed by `parl --version`: this package's. */
export const CLI_VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

/** Width the help text is wrapped to, whatever the terminal (so `docs/cli.md` can quote it exactly). */
export const HELP_WIDTH = 100;

/**
 * Which commands' optional option tables to load: `runCli` loads only those of the command the
 * command line names (so `parl reward` and `parl --help` load no optional package); the docs and
 * tests load all.
 */
export type LoadTablesFor = (command: string) => boolean;

function reportRecords(io: CliIo, json: boolean | undefined, summary: RecordRunSummary): void {
  const written = summary.output !== 'stdout';
  const human = !written
    ? undefined
    : `parl ${summary.command}: ${summary.records_written} records written to ${summary.output}${summary.records_skipped > 0 ? ` (${summary.records_skipped} skipped)` : ''}`;
  printSummary(io, json === true, written, summary, human);
}

/** Copy the defined entries of `flags` (commander leaves absent flags undefined). */
function defined<T extends object>(flags: T): Partial<T> {
  return Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function rewardProgram(io: CliIo): Command {
  const cmd = new Command('reward').description(
    'Add the spec §3 reward fields (total_reward, r_parallel, r_finish, r_perf, lambda1, lambda2, components) to each record',
  );
  addOptionFlags(cmd, REWARD_OPTIONS);
  addOptionFlags(cmd, RECORD_IO_FLAGS);
  return cmd.action(async (_flags: unknown, command: Command) => {
    const reward = optionsFromFlags(command, REWARD_OPTIONS);
    const { json, ...records } = optionsFromFlags(command, RECORD_IO_FLAGS);
    const { rewardCommand } = await import('./internal/commands/reward.js');
    reportRecords(io, json, await rewardCommand({ ...records, reward }, io));
  });
}

function criticalStepsProgram(io: CliIo): Command {
  const cmd = new Command('critical-steps').description(
    'Add the spec §2 fields (critical_steps, total_steps, parallelism, num_stages, max_width, mean_width) to each record; a record without stages is a bad record (exit code 2, or passed over with --on-error skip)',
  );
  addOptionFlags(cmd, CRITICAL_STEPS_OPTIONS);
  addOptionFlags(cmd, RECORD_IO_FLAGS);
  return cmd.action(async (_flags: unknown, command: Command) => {
    const options = optionsFromFlags(command, CRITICAL_STEPS_OPTIONS);
    const { json, ...records } = optionsFromFlags(command, RECORD_IO_FLAGS);
    const { criticalStepsCommand } = await import('./internal/commands/critical-steps.js');
    reportRecords(io, json, await criticalStepsCommand({ ...records, ...options }, io));
  });
}

function scheduleProgram(io: CliIo): Command {
  return new Command('schedule')
    .description('Print a λ schedule\'s values over training steps as a table with an ASCII chart, CSV or JSON; optionally an HTML chart')
    .argument('<spec>', 'the schedule: short form (linear:0.1:0:10000, step:0.1,0.05,0:3000,6000, …) or JSON')
    .option('--from <step>', 'first step (default 0)', nonNegativeNumber)
    .option('--to <step>', 'last step (default: where the schedule reaches its final value)', nonNegativeNumber)
    .option('--points <n>', 'rows in the table (default 11)', atLeastTwo)
    .addOption(new Option('--csv', 'print step,value CSV instead of the table').conflicts('json'))
    .option('--json', 'print JSON ({schedule, spec, samples}) instead of the table')
    .option('--no-chart', 'no ASCII chart under the table')
    .option('--html <file>', 'also write a self-contained HTML chart to FILE')
    .option('--out <file>', 'write the table, CSV or JSON to FILE (atomically) instead of stdout')
    .action(async (spec: string, flags: { from?: number; to?: number; points?: number; csv?: boolean; json?: boolean; chart: boolean; html?: string; out?: string }) => {
      const { scheduleCommand } = await import('./internal/commands/schedule.js');
      await scheduleCommand({ spec, ...defined(flags) }, io);
      if (flags.html !== undefined) io.stderr.write(`parl schedule: chart written to ${flags.html}\n`);
    });
}

/**
 * A command whose optional package is not installed: no flags to offer, every use says in one
 * line how to add the package, and the help says it too.
 */
const WITHOUT_PACKAGE = new WeakSet<Command>();

function withoutPackage(cmd: Command, pkg: OptionalPackage, name: string): Command {
  WITHOUT_PACKAGE.add(cmd);
  return cmd
    .description(`${cmd.description()} (needs ${pkg}: ${installHint(pkg)})`)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw notInstalled(pkg, name);
    });
}

/**
 * The `./options` entry of `pkg` for the command `name`: loaded when `load` says the command line
 * may need it; `'missing'` when the package is not installed (the command then says so).
 */
function tablesFor<P extends OptionalPackage>(pkg: P, name: string, load: LoadTablesFor): OptionalOptionsEntries[P] | 'missing' | 'unloaded' {
  if (!load(name)) return 'unloaded';
  return loadOptional(pkg) ?? 'missing';
}

function simulateProgram(io: CliIo, load: LoadTablesFor): Command {
  const cmd = new Command('simulate').description('Run a scripted or trained orchestrator policy in the swarm simulator and write its spec §5 episode records');
  const tables = tablesFor('@parl/sim', 'simulate', load);
  if (tables === 'missing') return withoutPackage(cmd, '@parl/sim', 'simulate');
  if (tables === 'unloaded') return cmd;
  addOptionFlags(cmd, tables.SIMULATE_OPTIONS);
  addOptionFlags(cmd, SIMULATE_OUTPUT_FLAGS);
  return cmd.action(async (_flags: unknown, command: Command) => {
    const simulation = optionsFromFlags(command, tables.SIMULATE_OPTIONS);
    const { json, ...output } = optionsFromFlags(command, SIMULATE_OUTPUT_FLAGS);
    const { simulateCommand } = await importOptional('@parl/sim', 'simulate', () => import('./internal/commands/simulate.js'));
    const summary = await simulateCommand({ ...simulation, ...output }, io);
    const human = output.out === undefined ? undefined : `parl simulate: ${summary.episodes} episodes of ${summary.policy} written to ${summary.output}`;
    printSummary(io, json === true, output.out !== undefined, summary, human);
  });
}

function trainProgram(io: CliIo, load: LoadTablesFor): Command {
  const cmd = new Command('train').description('Train an orchestrator policy with the PARL reward, with progress on stderr, then write the run folder and its report');
  const tables = tablesFor('@parl/sim', 'train', load);
  if (tables === 'missing') return withoutPackage(cmd, '@parl/sim', 'train');
  if (tables === 'unloaded') return cmd;
  addOptionFlags(cmd, tables.TRAIN_OPTIONS);
  return cmd
    .option('--out <dir>', 'the run folder to write (default runs/PRESET-seedSEED); an existing one is replaced only when it is a previous run folder')
    .option('--force', 'replace --out even when it is not a previous run folder (its contents are lost)')
    .option('--quiet', 'no progress on stderr')
    .option('--json', 'print {"run_dir", "report", "summary", "story"} as JSON on stdout')
    .action(async (flags: { out?: string; force?: boolean; quiet?: boolean; json?: boolean }, command: Command) => {
      const { out, force, quiet, json } = flags;
      const training = optionsFromFlags(command, tables.TRAIN_OPTIONS);
      const { trainCommand, trainClosingLine } = await importOptional('@parl/sim', 'train', () => import('./internal/commands/train.js'));
      const result = await trainCommand({ ...training, ...defined({ out, force, quiet }) }, io);
      if (json === true) {
        io.stdout.write(`${JSON.stringify(result)}\n`);
        return;
      }
      io.stderr.write(`parl train: ${trainClosingLine(result.summary, result.story)}\n`);
      io.stdout.write(`run folder: ${result.run_dir}\nreport: ${result.report}\n`);
    });
}

function sweepProgram(io: CliIo, load: LoadTablesFor): Command {
  const cmd = new Command('sweep').description(
    'Train every grid point × seed of a grid file (spec §9) on all cores, or on many machines through Redis; write the sweep folder with results.csv and a comparison report; a second run resumes',
  );
  const tables = tablesFor('@parl/sim', 'sweep', load);
  if (tables === 'missing') return withoutPackage(cmd, '@parl/sim', 'sweep');
  if (tables === 'unloaded') return cmd;
  addOptionFlags(cmd, tables.SWEEP_OPTIONS);
  return cmd
    .option('--out <dir>', 'the sweep folder (default sweeps/GRID, GRID the grid file\'s name without .json); runs already complete in it are skipped')
    .option('--quiet', 'no progress on stderr')
    .option('--json', 'print the outcome as JSON on stdout ({"dir", "runs", "trained", "skipped", "failed", "results", "report", "verdicts"})')
    .action(async (flags: { out?: string; quiet?: boolean; json?: boolean }, command: Command) => {
      const { out, quiet, json } = flags;
      const sweep = optionsFromFlags(command, tables.SWEEP_OPTIONS);
      const { sweepCommand } = await importOptional('@parl/sim', 'sweep', () => import('./internal/commands/sweep.js'));
      const result = await sweepCommand({ ...sweep, ...defined({ out, quiet }) }, io);
      if (json === true) {
        io.stdout.write(`${JSON.stringify(result)}\n`);
        return;
      }
      const v = result.verdicts;
      io.stderr.write(
        `parl sweep: ${result.runs} runs (${result.trained} trained, ${result.skipped} already complete); grid points: ${v['parallel'] ?? 0} parallel, ${v['spurious'] ?? 0} spurious, ${v['collapsed'] ?? 0} collapsed\n`,
      );
      io.stdout.write(`sweep folder: ${result.dir}\nresults: ${result.results}\nreport: ${result.report}\n`);
    });
}

function workerProgram(io: CliIo, load: LoadTablesFor): Command {
  const cmd = new Command('worker').description(
    'Take jobs from the Redis queue that parl sweep --queue and parl swarm run --queue fill (sweep runs, swarm rollouts), run them here and send the results back; runs until stopped',
  );
  addOptionFlags(cmd, WORKER_OPTIONS);
  // The worker's own tools for swarm rollouts are @parl/swarm's rows (the ones parl swarm run
  // takes), read only when the command line names `worker` and swarm is installed.
  const swarm = load('worker') ? loadOptional('@parl/swarm') : undefined;
  if (swarm !== undefined) {
    addOptionFlags(cmd, swarm.RUN_TOOL_OPTIONS);
    addOptionFlags(cmd, swarm.WORKER_ROLLOUT_OPTIONS);
  } else if (load('worker')) {
    cmd.description(`${cmd.description()} (its --tools, --mcp, --allow-endpoint and --model-folder flags for swarm rollouts need @parl/swarm: ${installHint('@parl/swarm')})`);
  }
  return cmd.option('--quiet', 'no line per job on stderr').action(async (flags: { quiet?: boolean }, command: Command) => {
    const worker = optionsFromFlags(command, WORKER_OPTIONS);
    const tools = swarm === undefined ? {} : optionsFromFlags(command, swarm.RUN_TOOL_OPTIONS);
    const rollouts = swarm === undefined ? {} : optionsFromFlags(command, swarm.WORKER_ROLLOUT_OPTIONS);
    const { workerCommand } = await import('./internal/commands/worker.js');
    await workerCommand({ ...worker, ...tools, ...rollouts, ...defined({ quiet: flags.quiet }) }, io);
  });
}

function reportProgram(io: CliIo): Command {
  return new Command('report')
    .description('Rebuild the HTML report of a training run from its config.json, metrics.jsonl and summary.json')
    .argument('<run-dir>', 'the run folder written by parl train')
    .option('--out <file>', 'write the report to FILE (default RUN_DIR/report.html)')
    .option('--json', 'print {"report": PATH} as JSON on stdout')
    .action(async (runDir: string, flags: { out?: string; json?: boolean }) => {
      const { reportCommand } = await import('./internal/commands/report.js');
      const result = await reportCommand({ runDir, ...defined({ out: flags.out }) });
      printSummary(io, flags.json === true, true, result, undefined);
      if (flags.json !== true) io.stdout.write(`report: ${result.report}\n`);
    });
}

function traceProgram(io: CliIo, load: LoadTablesFor): Command {
  const tables = tablesFor('@parl/traces', 'trace', load);
  // The formats come from @parl/traces' registry (its options entry), when its tables are loaded (`parl trace --help`).
  const formats = typeof tables === 'object' ? ` (${Object.values(tables.SPAN_FORMAT_TITLES).join(', ')})` : '';
  const what = 'into spec §5 episode records as run, with a serial-collapse finding per trace';
  // `parl --help` loads no optional package: its one line names no format, the same whether or not they are loaded.
  const cmd = new Command('trace').summary(`Turn agent traces ${what}`).description(`Turn agent traces${formats} ${what}`);
  if (tables === 'missing') return withoutPackage(cmd, '@parl/traces', 'trace');
  if (tables === 'unloaded') return cmd;
  for (const table of [TRACE_FILE_FLAGS, tables.TRACE_REPORT_OPTIONS, tables.TRACE_OPTIONS, TRACE_OUTPUT_FLAGS]) addOptionFlags(cmd, table);
  return cmd.action(async (_flags: unknown, command: Command) => {
    const files = optionsFromFlags(command, TRACE_FILE_FLAGS);
    const { drawn } = optionsFromFlags(command, tables.TRACE_REPORT_OPTIONS);
    const reading = optionsFromFlags(command, tables.TRACE_OPTIONS);
    const { json, ...output } = optionsFromFlags(command, TRACE_OUTPUT_FLAGS);
    const { traceCommand, traceSummaryLine } = await importOptional('@parl/traces', 'trace', () => import('./internal/commands/trace.js'));
    const summary = await traceCommand({ ...files, ...output, ...defined({ reportDrawn: drawn }), reading }, io);
    printSummary(io, json === true, files.out !== undefined, summary, traceSummaryLine(summary));
  });
}

function serveProgram(io: CliIo, load: LoadTablesFor): Command {
  const cmd = new Command('serve').description(
    'Run PARL as a service (spec §8): OTLP/HTTP trace receiver, rewards for RL trainers (/v1/rewards, OpenRLHF /get_reward), live dashboard, Prometheus metrics',
  );
  // The flags come from @parl/serve's table, read only when the command line names `serve` (so
  // that `parl --help` never loads the server); without it, the command says what to install.
  const tables = tablesFor('@parl/serve', 'serve', load);
  if (tables === 'missing') return withoutPackage(cmd, '@parl/serve', 'serve');
  if (tables === 'unloaded') return cmd;
  addOptionFlags(cmd, tables.SERVE_OPTIONS);
  return cmd.action(async (_flags: unknown, command: Command) => {
    const { serveCommand } = await importOptional('@parl/serve', 'serve', () => import('./internal/commands/serve.js'));
    await serveCommand(optionsFromFlags(command, tables.SERVE_OPTIONS), io);
  });
}

/**
 * The `parl` program over the given streams. Parsing errors throw commander's `CommanderError`
 * (see `runCli`, which turns them into exit codes).
 *
 * @param load - which commands' optional option tables to load (default: every command's)
 */
export function buildProgram(io: CliIo, load: LoadTablesFor = () => true): Command {
  const program = new Command('parl')
    .description('PARL for agent swarms: label rewards and critical steps, read agent traces, plot schedules, simulate, train and report')
    .version(CLI_VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show this help (parl COMMAND --help for a command)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .configureHelp({ helpWidth: HELP_WIDTH })
    .showHelpAfterError('(parl --help lists the commands)')
    .showSuggestionAfterError()
    .allowExcessArguments(false);
  program.helpCommand('help [command]', 'show the help of a command (same as parl COMMAND --help)');
  program.addHelpText('after', `\nExamples:\n${['parl reward --in rollouts.jsonl --out labelled.jsonl', 'parl help train', 'parl train --preset parl --steps 400'].map((l) => `  $ ${l}`).join('\n')}\n`);
  const commands = [
    rewardProgram(io),
    criticalStepsProgram(io),
    traceProgram(io, load),
    scheduleProgram(io),
    simulateProgram(io, load),
    trainProgram(io, load),
    sweepProgram(io, load),
    workerProgram(io, load),
    reportProgram(io),
    serveProgram(io, load),
    swarmProgram(io, load),
  ];
  for (const sub of commands) {
    program.addCommand(
      sub
        .helpOption('-h, --help', 'show this help')
        .exitOverride()
        .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
        .configureHelp({ helpWidth: HELP_WIDTH })
        .addHelpText('after', examplesHelp(sub.name()))
        .showHelpAfterError(false)
        .showSuggestionAfterError()
        // A command standing in for a missing package takes any words, to say what to install.
        .allowExcessArguments(WITHOUT_PACKAGE.has(sub)),
    );
  }
  return program;
}
