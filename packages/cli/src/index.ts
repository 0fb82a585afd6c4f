/**
 * `@parl/cli`: the `parl` command. Every command is also a function, so it can run in-process
 * with your own streams.
 *
 * @packageDocumentation
 */
export { runCli, EXIT_USAGE } from './run-cli.js';
export { buildProgram, CLI_VERSION, HELP_WIDTH } from './program.js';
export { CliError } from './errors.js';
export { processIo, type CliIo } from './io/cli-io.js';
export { rewardCommand, rewardConfigOf, type RewardCommandOptions } from './commands/reward.js';
export { criticalStepsCommand, type CriticalStepsCommandOptions } from './commands/critical-steps.js';
export { scheduleCommand, type ScheduleCommandOptions } from './commands/schedule.js';
export { sampleSchedule, defaultEndStep, type ScheduleSamples, type ScheduleSample, type SampleRange } from './commands/schedule-samples.js';
export { traceCommand, traceSummaryLine, type TraceCommandOptions, type TraceRunSummary } from './commands/trace.js';
export { readOutcomes, type OutcomeTable } from './io/outcomes.js';
export { simulateCommand, DEFAULT_SIMULATE_POLICY, type SimulateCommandOptions, type SimulateSummary } from './commands/simulate.js';
export { trainCommand, trainingConfigOf, DEFAULT_PRESET, type TrainCommandOptions, type TrainCommandResult } from './commands/train.js';
export { sweepCommand, type SweepCommandOptions, type SweepCommandResult } from './commands/sweep.js';
export { workerCommand, type WorkerCommandOptions } from './commands/worker.js';
export { runSweep, type SweepOptions, type SweepOutcome } from './sweep/run-sweep.js';
export { RESULT_COLUMNS, resultsCsv, type SweepResult } from './sweep/results.js';
export { createLocalPool, defaultThreads, type SweepRunner } from './sweep/local-pool.js';
export { createQueueRunner, type QueueRunner } from './sweep/queue-runner.js';
export { startQueueWorker, DEFAULT_STALLED_AFTER_S, type QueueWorkerOptions, type QueueWorkerEvent, type QueueWorkerHandle } from './sweep/queue-worker.js';
export { DEFAULT_QUEUE_NAME } from './sweep/queue-connection.js';
export { buildSweepReport, sweepPointRows, bestPoint, type SweepReportInput, type SweepPointRow } from './report/sweep-report.js';
export { createSweepProgress, type SweepProgress, type SweepProgressEvent } from './io/sweep-progress.js';
export { createProgressReporter, type ProgressReporter, type ProgressUpdate } from './io/train-progress.js';
export { reportCommand, type ReportCommandOptions, type ReportCommandResult } from './commands/report.js';
export { labelStream, ON_ERROR_CHOICES, type OnError, type RecordIoOptions, type RecordRunSummary, type RecordLabeller } from './io/label-stream.js';
export { readRecords, openInput, isUnreadable, type RecordFormat, type RecordItem, type SourcedRecord, type UnreadableRecord } from './io/read-records.js';
export { createRecordWriter, OUTPUT_FORMATS, type OutputFormat, type RecordWriter, type RecordWriterOptions } from './io/record-writer.js';
export { atomicFileSink, streamSink, writeFileAtomic, openFileSink, openTextSink, tempPathFor, type TextSink } from './io/text-sink.js';
export { csvRow, csvCell } from './io/csv.js';
export { readRunFolder, type RunData } from './report/run-folder.js';
export { buildRunReport, summaryTables } from './report/build-report.js';
export { runCharts } from './report/run-charts.js';
export { renderChartPage, type ChartPage, type PageChart, type ChartConfigJson } from './report/html-page.js';
