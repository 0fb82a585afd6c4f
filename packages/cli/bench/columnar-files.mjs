// The columnar inputs of bench/label.mjs: the bench's records as a Parquet file and an Arrow IPC
// file, built with apache-arrow (vectorFromArray over typed columns) and written with the same
// libraries parl uses (parquet-wasm for Parquet), 65 536 rows per record batch / row group.
import { openAsBlob, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Field, Float64, Int32, List, Struct, Table, Utf8, tableFromIPC, tableToIPC, vectorFromArray, makeTable } from 'apache-arrow';
import * as parquet from 'parquet-wasm';

const BATCH = 65_536;

function batchOf(records) {
  const stageType = new Struct([new Field('main_steps', new Float64(), false), new Field('sub_steps', new List(new Field('item', new Float64(), false)), false)]);
  const columns = {
    id: vectorFromArray(records.map((r) => r.id), new Utf8()),
    prompt_id: vectorFromArray(records.map((r) => r.prompt_id), new Utf8()),
    model: vectorFromArray(records.map((r) => r.model), new Utf8()),
    training_step: vectorFromArray(Int32Array.from(records, (r) => r.training_step)),
    num_subagents: vectorFromArray(Int32Array.from(records, (r) => r.num_subagents)),
    assigned_subtasks: vectorFromArray(Int32Array.from(records, (r) => r.assigned_subtasks)),
    completed_subtasks: vectorFromArray(Int32Array.from(records, (r) => r.completed_subtasks)),
    r_perf: vectorFromArray(Float64Array.from(records, (r) => r.r_perf)),
    stages: vectorFromArray(records.map((r) => r.stages), new List(new Field('item', stageType, false))),
  };
  return makeTable(columns).batches;
}

/** Write `n` records (from `record(i)`) as rollouts.parquet and rollouts.arrow in `dir`; their paths. */
export async function writeColumnarFiles(dir, n, record) {
  const batches = [];
  for (let from = 0; from < n; from += BATCH) {
    const records = [];
    for (let i = from; i < Math.min(n, from + BATCH); i++) records.push(record(i));
    batches.push(...batchOf(records));
  }
  const table = new Table(batches);
  const arrowPath = join(dir, 'rollouts.arrow');
  writeFileSync(arrowPath, tableToIPC(table, 'file'));
  const parquetPath = join(dir, 'rollouts.parquet');
  const props = new parquet.WriterPropertiesBuilder().setMaxRowGroupSize(BATCH).build();
  writeFileSync(parquetPath, parquet.writeParquet(parquet.Table.fromIPCStream(tableToIPC(table, 'stream')), props));
  return { parquet: parquetPath, arrow: arrowPath };
}

/**
 * parquet-wasm alone on `path`, as parl reads and writes Parquet: each row group decoded to an
 * Arrow IPC stream and read by apache-arrow (`decodeSeconds`, of which `ipcSeconds` the IPC hand-over),
 * then those batches encoded into a Parquet file in memory (`encodeSeconds`). No labelling, no file
 * written.
 */
export async function timeParquetCodec(path) {
  const since = (started) => Number(process.hrtime.bigint() - started) / 1e9;
  let started = process.hrtime.bigint();
  const file = await parquet.ParquetFile.fromFile(await openAsBlob(path));
  const batches = [];
  /** Of the decoding, the time spent handing the batches from WebAssembly to apache-arrow (IPC). */
  let ipcSeconds = 0;
  for (let group = 0; group < file.metadata().numRowGroups(); group++) {
    const table = await file.read({ rowGroups: [group], batchSize: BATCH });
    const handOver = process.hrtime.bigint();
    batches.push(...tableFromIPC(table.intoIPCStream()).batches);
    ipcSeconds += since(handOver);
  }
  file.free();
  const decodeSeconds = since(started);
  const ipc = tableToIPC(new Table(batches), 'stream');
  started = process.hrtime.bigint();
  const bytes = parquet.writeParquet(parquet.Table.fromIPCStream(ipc));
  const encodeSeconds = since(started);
  if (bytes.length === 0) throw new Error('parquet-wasm wrote nothing');
  return { decodeSeconds, ipcSeconds, encodeSeconds, ipc };
}

/**
 * parquet-wasm encoding `ipc` (an Arrow IPC stream: the labelled records) with its default writer
 * properties and with parl's (Snappy, no dictionary for the `computed` columns): seconds and bytes
 * of each, best of three.
 */
export function timeParquetWriterProperties(ipc, computed) {
  const parls = () => {
    let builder = new parquet.WriterPropertiesBuilder().setCompression(parquet.Compression.SNAPPY);
    for (const name of computed) builder = builder.setColumnDictionaryEnabled(name, false);
    return builder.build();
  };
  const out = {};
  for (const [name, props] of [['defaults', () => undefined], ['parl', parls]]) {
    let seconds = Infinity;
    let bytes = 0;
    for (let pass = 0; pass < 3; pass++) {
      const started = process.hrtime.bigint();
      bytes = parquet.writeParquet(parquet.Table.fromIPCStream(ipc), props()).length;
      seconds = Math.min(seconds, Number(process.hrtime.bigint() - started) / 1e9);
    }
    out[name] = { seconds, bytes };
  }
  return out;
}
