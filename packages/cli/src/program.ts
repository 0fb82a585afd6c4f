/**
 * The `parl` program: its commands and flags (commander), each action a thin call into
 * `commands/`. A command's module is loaded only when it runs, so `parl reward` never loads the
 * simulator or TensorFlow.js, and `--help` starts fast.
 *
 * @module
 */
import { CRITICAL_STEPS_OPTIONS, ParlInputError, REWARD_OPTIONS } from '@parl/core';
import { createRequire } from 'node:module';
import { Command, Option } from 'commander';
import { examplesHelp } from './help-examples.js';
import type { TraceCommandOptions } from './commands/trace.js';
import { INSTALL_SIMULATOR_HINT, simulatorOptionTables, traceOptionTable, withOptionalPackage, withSimulator } from './simulator.js';
import { atLeastTwo, nameList, nonNegativeNumber, positiveInteger, seedValue } from './flag-values.js';
import { addOptionFlags, optionsFromFlags } from './option-flags.js';
import { INSTALL_SERVE_HINT, serveOptionTable } from './serve-options.js';
import { CliError } from './errors.js';
import type { CliIo } from './io/cli-io.js';
import { ON_ERROR_CHOICES, OUTPUT_FORMATS, WORKER_OPTIONS, type OnError, type OutputFormat, type RecordRunSummary } from '@parl/io';
import { printSummary } from './summary-output.js';
import { swarmProgram } from './swarm-program.js';

/** The version printed by `parl --version`: this package's. */
export const CLI_VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

/** Width the help text is wrapped to, whatever the terminal (so `docs/cli.md` can quote it exactly). */
export const HELP_WIDTH = 100;

interface RecordFlags {
  in?: string;
  out?: string;
  format?: OutputFormat;
  columns?: string[];
  onError?: OnError;
  threads?: number;
  json?: boolean;
}

function addRecordIoFlags(cmd: Command): Command {
  return cmd
    .option('--in <file>', 'read records from FILE (JSON or JSONL, detected; Parquet or Arrow IPC by the name: .parquet, .arrow, .arrows) instead of stdin')
    .option('--out <file>', 'write records to FILE (atomically) instead of stdout; .parquet, .arrow or .arrows from a Parquet or Arrow --in')
    .addOption(new Option('--format <format>', 'output format (default: the input format)').choices(OUTPUT_FORMATS))
    .option('--columns <list>', 'CSV columns, comma separated (default: the first record\'s fields)', nameList)
    .addOption(new Option('--on-error <mode>', 'on a bad record: stop with exit code 2, or skip it and report it on stderr').choices(ON_ERROR_CHOICES).default('fail'))
    .option('--threads <n>', 'worker threads labelling JSONL input, output in input order (default 1: the main thread)', positiveInteger)
    .option('--json', 'print a machine-readable JSON summary (stdout with --out, else stderr)');
}

function recordIo(flags: RecordFlags): RecordFlags {
  const out: RecordFlags = {};
  if (flags.in !== undefined) out.in = flags.in;
  if (flags.out !== undefined) out.out = flags.out;
  if (flags.format !== undefined) out.format = flags.format;
  if (flags.columns !== undefined) out.columns = flags.columns;
  if (flags.onError !== undefined) out.onError = flags.onError;
  if (flags.threads !== undefined) out.threads = flags.threads;
  return out;
}

function reportRecords(io: CliIo, flags: RecordFlags, summary: RecordRunSummary): void {
  const human =
    flags.out === undefined
      ? undefined
      : `parl ${summary.command}: ${summary.records_written} records written to ${summary.output}${summary.records_skipped > 0 ? ` (${summary.records_skipped} skipped)` : ''}`;
  printSummary(io, flags.json === true, flags.out !== undefined, summary, human);
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
  addRecordIoFlags(cmd);
  return cmd.action(async (flags: RecordFlags, command: Command) => {
    const reward = optionsFromFlags(command, REWARD_OPTIONS);
    const { rewardCommand } = await import('./commands/reward.js');
    const summary = await rewardCommand({ ...recordIo(flags), reward }, io);
    reportRecords(io, flags, summary);
  });
}

function criticalStepsProgram(io: CliIo): Command {
  const cmd = new Command('critical-steps').description(
    'Add the spec §2 fields (critical_steps, total_steps, parallelism, num_stages, max_width, mean_width) to each record; a record without stages is a bad record (exit code 2, or passed over with --on-error skip)',
  );
  addOptionFlags(cmd, CRITICAL_STEPS_OPTIONS);
  addRecordIoFlags(cmd);
  return cmd.action(async (flags: RecordFlags, command: Command) => {
    const options = optionsFromFlags(command, CRITICAL_STEPS_OPTIONS);
    const { criticalStepsCommand } = await import('./commands/critical-steps.js');
    const summary = await criticalStepsCommand({ ...recordIo(flags), ...options }, io);
    reportRecords(io, flags, summary);
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
      const { scheduleCommand } = await import('./commands/schedule.js');
      await scheduleCommand({ spec, ...defined(flags) }, io);
      if (flags.html !== undefined) io.stderr.write(`parl schedule: chart written to ${flags.html}\n`);
    });
}

/**
 * A simulator command without `@parl/sim`: no flags to offer, every use says in one line how to
 * add the simulator, and the help says it too.
 */
const WITHOUT_SIMULATOR = new WeakSet<Command>();

function withoutSimulator(cmd: Command, name: string): Command {
  WITHOUT_SIMULATOR.add(cmd);
  return cmd
    .description(`${cmd.description()} (needs @parl/sim: ${INSTALL_SIMULATOR_HINT})`)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new CliError(`parl ${name} needs @parl/sim, which is not installed: ${INSTALL_SIMULATOR_HINT}`, 1);
    });
}

function simulateProgram(io: CliIo): Command {
  const cmd = new Command('simulate').description('Run a scripted or trained orchestrator policy in the swarm simulator and write its spec §5 episode records');
  const tables = simulatorOptionTables();
  if (tables === undefined) return withoutSimulator(cmd, 'simulate');
  addOptionFlags(cmd, tables.SIMULATE_OPTIONS);
  return cmd
    .option('--out <file>', 'write records to FILE (atomically) instead of stdout')
    .addOption(new Option('--format <format>', 'output format (default: jsonl)').choices(OUTPUT_FORMATS))
    .option('--columns <list>', 'CSV columns, comma separated (default: the first record\'s fields)', nameList)
    .option('--json', 'print a machine-readable JSON summary (stdout with --out, else stderr)')
    .action(async (flags: { out?: string; format?: OutputFormat; columns?: string[]; json?: boolean }, command: Command) => {
      const { out, format, columns, json } = flags;
      const simulation = optionsFromFlags(command, tables.SIMULATE_OPTIONS);
      const { simulateCommand } = await withSimulator('simulate', () => import('./commands/simulate.js'));
      const summary = await simulateCommand({ ...defined(simulation), ...defined({ out, format, columns }) }, io);
      const human = flags.out === undefined ? undefined : `parl simulate: ${summary.episodes} episodes of ${summary.policy} written to ${summary.output}`;
      printSummary(io, json === true, flags.out !== undefined, summary, human);
    });
}

function trainProgram(io: CliIo): Command {
  const cmd = new Command('train').description('Train an orchestrator policy with the PARL reward, with progress on stderr, then write the run folder and its report');
  const tables = simulatorOptionTables();
  if (tables === undefined) return withoutSimulator(cmd, 'train');
  addOptionFlags(cmd, tables.TRAIN_OPTIONS);
  return cmd
    .option('--out <dir>', 'the run folder to write (default runs/PRESET-seedSEED); an existing one is replaced only when it is a previous run folder')
    .option('--force', 'replace --out even when it is not a previous run folder (its contents are lost)')
    .option('--quiet', 'no progress on stderr')
    .option('--json', 'print {"run_dir", "report", "summary", "story"} as JSON on stdout')
    .action(async (flags: { out?: string; force?: boolean; quiet?: boolean; json?: boolean }, command: Command) => {
      const { out, force, quiet, json } = flags;
      const training = optionsFromFlags(command, tables.TRAIN_OPTIONS);
      const { trainCommand, trainClosingLine } = await withSimulator('train', () => import('./commands/train.js'));
      const result = await trainCommand({ ...defined(training), ...defined({ out, force, quiet }) }, io);
      if (json === true) {
        io.stdout.write(`${JSON.stringify(result)}\n`);
        return;
      }
      io.stderr.write(`parl train: ${trainClosingLine(result.summary, result.story)}\n`);
      io.stdout.write(`run folder: ${result.run_dir}\nreport: ${result.report}\n`);
    });
}

function sweepProgram(io: CliIo): Command {
  const cmd = new Command('sweep').description(
    'Train every grid point × seed of a grid file (spec §9) on all cores, or on many machines through Redis; write the sweep folder with results.csv and a comparison report; a second run resumes',
  );
  const tables = simulatorOptionTables();
  if (tables === undefined) return withoutSimulator(cmd, 'sweep');
  addOptionFlags(cmd, tables.SWEEP_OPTIONS);
  mandatory(cmd, '--grid');
  return cmd
    .option('--out <dir>', 'the sweep folder (default sweeps/GRID, GRID the grid file\'s name without .json); runs already complete in it are skipped')
    .option('--quiet', 'no progress on stderr')
    .option('--json', 'print the outcome as JSON on stdout ({"dir", "runs", "trained", "skipped", "failed", "results", "report", "verdicts"})')
    .action(async (flags: { out?: string; quiet?: boolean; json?: boolean }, command: Command) => {
      const { out, quiet, json } = flags;
      const { grid, ...sweep } = optionsFromFlags(command, tables.SWEEP_OPTIONS);
      if (sweep.queueName !== undefined && sweep.queue === undefined) throw new ParlInputError('--queue-name', sweep.queueName, 'used with --queue (it names the queue the runs go on)');
      const { sweepCommand } = await withSimulator('sweep', () => import('./commands/sweep.js'));
      const result = await sweepCommand({ ...defined(sweep), ...defined({ out, quiet }), grid: grid as string }, io);
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

function workerProgram(io: CliIo): Command {
  const cmd = new Command('worker').description(
    'Take jobs from the Redis queue that parl sweep --queue and parl swarm run --queue fill (sweep runs, swarm rollouts), run them here and send the results back; runs until stopped',
  );
  addOptionFlags(cmd, WORKER_OPTIONS);
  mandatory(cmd, '--queue');
  return cmd.option('--quiet', 'no line per job on stderr').action(async (flags: { quiet?: boolean }, command: Command) => {
    const { queue, ...worker } = optionsFromFlags(command, WORKER_OPTIONS);
    const { workerCommand } = await import('./commands/worker.js');
    await workerCommand({ ...defined(worker), ...defined({ quiet: flags.quiet }), queue: queue as string }, io);
  });
}

/** Make a flag the table declared required (commander says so when it is missing). */
function mandatory(cmd: Command, flag: string): void {
  const option = cmd.options.find((o) => o.long === flag);
  if (option === undefined) throw new Error(`${cmd.name()} has no ${flag} flag to make required`);
  option.makeOptionMandatory();
}

function reportProgram(io: CliIo): Command {
  return new Command('report')
    .description('Rebuild the HTML report of a training run from its config.json, metrics.jsonl and summary.json')
    .argument('<run-dir>', 'the run folder written by parl train')
    .option('--out <file>', 'write the report to FILE (default RUN_DIR/report.html)')
    .option('--json', 'print {"report": PATH} as JSON on stdout')
    .action(async (runDir: string, flags: { out?: string; json?: boolean }) => {
      const { reportCommand } = await import('./commands/report.js');
      const result = await reportCommand({ runDir, ...defined({ out: flags.out }) });
      printSummary(io, flags.json === true, true, result, undefined);
      if (flags.json !== true) io.stdout.write(`report: ${result.report}\n`);
    });
}

function traceProgram(io: CliIo): Command {
  const cmd = new Command('trace')
    .description('Turn agent traces (OpenTelemetry OTLP JSON, OpenAI Agents SDK, LangSmith, Mastra) into spec §5 episode records as run, with a serial-collapse finding per trace')
    .option('--in <file>', 'read traces from FILE (JSONL or one JSON document, streamed) instead of stdin')
    .option('--out <file>', 'write records to FILE (atomically) instead of stdout')
    .option('--findings <file>', 'write one serial-collapse finding per trace to FILE (JSONL, atomically)')
    .option('--outcomes <file>', 'JSON or JSONL objects {id, success, quality, r_perf, …} added to the record of that id')
    .option('--report <file>', 'write the trace report to FILE (one self-contained HTML page, atomically): a summary, the traces with the largest possible saving drawn as timelines, the rest listed')
    .option('--report-drawn <n>', 'traces drawn in --report, largest possible saving first; the rest are listed (default 20, at most 1000)', seedValue);
  const traceTable = traceOptionTable();
  if (traceTable !== undefined) addOptionFlags(cmd, traceTable);
  return cmd
    .addOption(new Option('--format <format>', 'output format of the records (default: jsonl)').choices(OUTPUT_FORMATS))
    .option('--columns <list>', 'CSV columns, comma separated (default: the first record\'s fields)', nameList)
    .option('--json', 'print a machine-readable JSON summary (stdout with --out, else stderr)')
    .action(async (flags: Pick<TraceCommandOptions, 'in' | 'out' | 'findings' | 'outcomes' | 'report' | 'reportDrawn' | 'format' | 'columns'> & { json?: boolean }, command: Command) => {
      const { in: input, out, findings, outcomes, report, reportDrawn, format, columns, json } = flags;
      const { traceCommand, traceSummaryLine } = await withOptionalPackage('@parl/traces', 'trace', () => import('./commands/trace.js'));
      // The table was read when the program was built; the import above names a missing @parl/traces.
      const { format: traceFormat, ...reading } = optionsFromFlags(command, traceTable as NonNullable<typeof traceTable>);
      const summary = await traceCommand({ ...defined({ in: input, out, findings, outcomes, report, reportDrawn, format, columns, traceFormat }), ...reading }, io);
      printSummary(io, json === true, flags.out !== undefined, summary, traceSummaryLine(summary));
    });
}

function serveProgram(io: CliIo): Command {
  const cmd = new Command('serve').description(
    'Run PARL as a service (spec §8): OTLP/HTTP trace receiver, rewards for RL trainers (/v1/rewards, OpenRLHF /get_reward), live dashboard, Prometheus metrics',
  );
  // The flags come from @parl/serve's table, which runCli loads first when the command line names
  // `serve` (so that `parl --help` never loads the server); without it, the command says what to install.
  const table = serveOptionTable();
  if (table !== undefined) addOptionFlags(cmd, table);
  return cmd.action(async (_flags: unknown, command: Command) => {
    if (table === undefined) throw new CliError(`parl serve needs @parl/serve, which is not installed: ${INSTALL_SERVE_HINT}`, 1);
    const { serveCommand } = await withOptionalPackage('@parl/serve', 'serve', () => import('./commands/serve.js'));
    await serveCommand(optionsFromFlags(command, table), io);
  });
}

/**
 * The `parl` program over the given streams. Parsing errors throw commander's `CommanderError`
 * (see `runCli`, which turns them into exit codes).
 */
export function buildProgram(io: CliIo): Command {
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
  for (const sub of [rewardProgram(io), criticalStepsProgram(io), traceProgram(io), scheduleProgram(io), simulateProgram(io), trainProgram(io), sweepProgram(io), workerProgram(io), reportProgram(io), serveProgram(io), swarmProgram(io)]) {
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
        .allowExcessArguments(WITHOUT_SIMULATOR.has(sub)),
    );
  }
  return program;
}
