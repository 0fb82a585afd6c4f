/**
 * `@parl/io` (Node only): PARL record files and the one labelling engine.
 *
 * - Record reading and writing: JSONL, JSON, CSV ({@link readRecords}, {@link createRecordWriter}),
 *   Arrow IPC and Parquet (through {@link labelStream}), every output file written atomically
 *   ({@link openFileSink}, {@link writeFileAtomic}).
 * - The labelling engine — bytes in, bytes out: parse, validate with typo hints, label with
 *   `@parl/core`, serialise — behind `parl reward`, `parl critical-steps` ({@link labelStream}) and
 *   `parl serve`'s `POST /v1/rewards` ({@link labelRecordsBody}, {@link createBodyLabeller}), with one
 *   worker pool and one worker file (`dist/label-worker.js`). The engine takes a resolved core
 *   config ({@link LabelSpec}); flags and query strings are their owners' business.
 *
 * @packageDocumentation
 */
export { ParlIoError, describeFsError } from './errors.js';
export { labelStream, ON_ERROR_CHOICES, type LabelStreams, type OnError, type RecordIoOptions, type RecordRunSummary } from './label-stream.js';
export { labelFieldsOf, labelSpecOf, sendableRewardConfig, type LabelFieldsOf, type LabelSpec } from './labellers.js';
export {
  labelRecordsBody,
  type BodyExtras,
  type LabelBodyFailure,
  type LabelBodyTask,
  type LabelledAnswer,
  type LabelledBody,
  type PostedRecords,
} from './labelled-body.js';
export { BODY_SLICE_BYTES, BODY_WHOLE_BYTES, labelRecordsBodyInSlices, type LabelledSlices } from './sliced-body.js';
export { BodyQueueFullError, createBodyLabeller, type BodyLabeller, type BodyLabellerOptions, type ModuleCall } from './label-pool.js';
export type { ThreadCallResult } from './label-worker.js';
export { parseRecordsBody, readRecordsBody, type BodyFormat, type BodyRecord, type BodyRecords } from './records-body.js';
export { appendLabelFields } from './append-fields.js';
export { isUnreadable, openInput, readRecords, type ReadRecordsOptions, type RecordFormat, type RecordItem, type SourcedRecord, type UnreadableRecord } from './read-records.js';
export { readRows, type RowFormat, type SourcedRow } from './read-rows.js';
export type { InputLine, LinePlace, LineReader } from './input-lines.js';
export {
  appendedLines,
  openLineAppender,
  partialPathOf,
  readAppendedLine,
  type AppendedLine,
  type LineAppender,
  type OpenLineAppenderOptions,
} from './appended-lines.js';
export { createRecordWriter, OUTPUT_FORMATS, type OutputFormat, type RecordWriter, type RecordWriterOptions } from './record-writer.js';
export { atomicFileSink, openFileSink, openTextSink, streamSink, writeFileAtomic, type TextSink } from './text-sink.js';
export { claimOutputs, type OutputClaim } from './output-claims.js';
export { onProcessExit, onSignalBeforeExit, removeTempPaths, removeTempPathsOnSignal, tempPaths } from './exit-cleanup.js';
export { csvCell, csvRow } from './csv.js';
export type { ColumnarFormat } from './columnar/columnar-format.js';
export { checkQueueUrl, QUEUE_URL_VARIABLE, resolveQueueUrl, shownQueueUrl } from './queue/queue-url.js';
export { DEFAULT_QUEUE_NAME } from './queue/queue-name.js';
export {
  DEFAULT_STALLED_AFTER_S,
  QUEUE_NAME_ROW,
  QUEUE_URL_ROW,
  WORKER_OPTIONS,
  type WorkerSettings,
} from './queue/queue-options.js';
