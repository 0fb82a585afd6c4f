// Issue 14, items 1 and 3: `parl reward` / `parl critical-steps` on a large JSONL file against
// the JSON floor, with 1 and 2 worker threads, and on the same records as Parquet and Arrow IPC,
// all in one run. Every case is a separate `node` process (its wall time and, through
// /usr/bin/time, its peak RSS), reading the same file and writing a file of its own; a case that
// writes a file runs twice and the second run is timed (see timedWriting).
//
//   floor:        bench/json-floor.mjs — stream + split + JSON.parse + JSON.stringify + write, one core
//   parl … :      node bin/parl.js reward|critical-steps --in FILE --out FILE [--threads N]
//   columnar:     the same commands with --in/--out .parquet, .arrow (records/s against JSONL)
//   with text:    the floor and `parl reward` on records that also carry a 2 KB `response`
//
//   no file:      the floor and the JSONL commands again, standard output on the null device
//   per record:   the steps of labelling one record, in this process (bench/record-costs.mjs)
//   parquet-wasm: decoding the Parquet file's row groups to Arrow, and encoding them, alone
//
// Run: pnpm --filter @parl/cli build && flock /work/bench.lock pnpm --filter @parl/cli bench:label
// SIZE_MB=1024 (default) sizes the JSONL file; COLUMNAR_RECORDS (default: all of its records)
// sizes the columnar files; BENCH_DIR (default: the OS temp folder) is where they are written.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cliDir = dirname(dirname(fileURLToPath(import.meta.url)));
const BIN = join(cliDir, 'bin', 'parl.js');
const SIZE_MB = Number(process.env.SIZE_MB ?? 1024);
const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'parl-label-bench-'));
const input = join(dir, 'rollouts.jsonl');

/** A deterministic spec §5 record of about 400 bytes: counts, r_perf, 1–6 stages, extra fields. */
function record(i) {
  const stages = [];
  for (let t = 0; t < 1 + (i % 6); t++) {
    stages.push({ main_steps: 1, sub_steps: Array.from({ length: (i + t) % 7 }, (_, k) => 1 + ((i * 7 + k * 3 + t) % 23)) });
  }
  const launched = stages.reduce((n, s) => n + s.sub_steps.length, 0);
  return {
    id: `rollout-${i}`,
    prompt_id: `gsm8k-${i % 7473}`,
    model: 'kimi-k2-instruct',
    training_step: i % 20000,
    num_subagents: launched,
    assigned_subtasks: launched,
    completed_subtasks: launched - (i % 3 === 0 && launched > 0 ? 1 : 0),
    r_perf: Math.round(((i * 2654435761) % 1000) / 1000 * 1e6) / 1e6,
    stages,
  };
}

/** Words a record's `response` is cut from: about 2 KB of text per record. */
const RESPONSE_TEXT = 'The orchestrator splits the task into subtasks and runs frozen sub-agents on them at the same time. '.repeat(24);

/** {@link record} with a `response` of about 2 KB, as trainers' rollouts carry the model's text. */
function recordWithText(i) {
  return { ...record(i), response: RESPONSE_TEXT.slice(i % 97, (i % 97) + 2000) };
}

async function writeJsonl(path, bytes, make = record) {
  const out = createWriteStream(path);
  let written = 0;
  let i = 0;
  while (written < bytes) {
    let batch = '';
    for (let k = 0; k < 2000; k++) batch += `${JSON.stringify(make(i++))}\n`;
    written += Buffer.byteLength(batch);
    if (!out.write(batch)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return i;
}

/** An open descriptor on the null device: a case's standard output, when it writes no file. */
const nullDevice = openSync('/dev/null', 'w');

/**
 * Run `args` under /usr/bin/time: wall seconds and peak RSS (MiB), or throw with its stderr.
 * `discardStdout`: the process's standard output is the null device (no file written at all).
 */
function timed(args, discardStdout = false) {
  const timeBin = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-f', '%e %M'] : [];
  const env = { ...process.env };
  delete env.NODE_PATH;
  const started = process.hrtime.bigint();
  const stdio = ['ignore', discardStdout ? nullDevice : 'pipe', 'pipe'];
  const r = spawnSync(timeBin[0] ?? args[0], [...timeBin.slice(1), ...(timeBin.length > 0 ? args : args.slice(1))], { encoding: 'utf8', env, maxBuffer: 1 << 24, stdio });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const last = r.stderr.trim().split('\n').at(-1) ?? '';
  const rssKb = Number(last.split(' ')[1]);
  return { wall, rssMib: Number.isFinite(rssKb) ? rssKb / 1024 : NaN, stdout: r.stdout };
}

/**
 * `timed(args)` for a case that writes the file `output`, run twice in a row and the second run
 * timed. On this VM a page of memory the guest has given back to the host costs a fault in the
 * host when it is touched again, and a deleted file's page cache is given back a few seconds after
 * (free page reporting): a case that writes its file right after another case deleted a larger
 * one runs several times faster than one that does not. The untimed first run, its file deleted
 * just before the timed one, gives every case the same start.
 */
function timedWriting(args, output) {
  timed(args);
  rmSync(output, { force: true });
  return timed(args);
}

const fmt = (x, d = 2) => x.toFixed(d);
const rows = [];
function report(name, seconds, bytes, records, rss, base) {
  const mbps = bytes / 1e6 / seconds;
  rows.push({ name, seconds, mbps, records: records / seconds, rss, ratio: base === undefined ? 1 : mbps / base });
  console.log(
    `${name.padEnd(44)} ${fmt(seconds).padStart(7)} s ${fmt(mbps, 1).padStart(7)} MB/s ${Math.round(records / seconds).toString().padStart(9)} rec/s ${fmt(rss, 0).padStart(5)} MiB RSS` +
      (base === undefined ? '   1× (floor)' : ` ${fmt(mbps / base).padStart(5)}× floor`),
  );
}

console.log(`load average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')} (${cpus().length} cores), node ${process.version}`);
const records = await writeJsonl(input, SIZE_MB * 1024 * 1024);
const bytes = statSync(input).size;
console.log(`input: ${(bytes / 1048576).toFixed(1)} MiB, ${records} records, ${dir}`);

const floorOut = join(dir, 'floor.jsonl');
const floor = timedWriting([process.execPath, join(cliDir, 'bench', 'json-floor.mjs'), input, floorOut], floorOut);
const floorMbps = bytes / 1e6 / floor.wall;
report('floor: stream+split+parse+stringify (1 core)', floor.wall, bytes, records, floor.rssMib);
rmSync(floorOut);

const out = join(dir, 'out.jsonl');
const outBytes = {};
const jsonlRate = {};
for (const command of ['reward', 'critical-steps']) {
  for (const threads of [1, 2]) {
    const r = timedWriting([process.execPath, BIN, command, '--in', input, '--out', out, '--threads', String(threads)], out);
    outBytes[command] = statSync(out).size;
    rmSync(out);
    report(`parl ${command} --threads ${threads}`, r.wall, bytes, records, r.rssMib, floorMbps);
    if (threads === 1) jsonlRate[command] = records / r.wall;
  }
}
console.log(`output/input size: ${(outBytes.reward / bytes).toFixed(2)}× (reward), ${(outBytes['critical-steps'] / bytes).toFixed(2)}× (critical-steps)`);

// Records that carry text (a `response` of about 2 KB each), the same size in all: the floor and
// `parl reward` again. Most of each line is then one string that both copy whole.
const textInput = join(dir, 'rollouts-with-text.jsonl');
const textRecords = await writeJsonl(textInput, SIZE_MB * 1024 * 1024, recordWithText);
const textBytes = statSync(textInput).size;
console.log(`records with text: ${(textBytes / 1048576).toFixed(1)} MiB, ${textRecords} records`);
const textFloor = timedWriting([process.execPath, join(cliDir, 'bench', 'json-floor.mjs'), textInput, floorOut], floorOut);
rmSync(floorOut);
report('with text: floor', textFloor.wall, textBytes, textRecords, textFloor.rssMib);
for (const threads of [1, 2]) {
  const r = timedWriting([process.execPath, BIN, 'reward', '--in', textInput, '--out', out, '--threads', String(threads)], out);
  rmSync(out);
  report(`with text: parl reward --threads ${threads}`, r.wall, textBytes, textRecords, r.rssMib, textBytes / 1e6 / textFloor.wall);
}
rmSync(textInput);

// The same, with no output file: standard output is the null device. On this VM a page of a new
// file costs a fault in the host (see docs/benchmarks.md), so these rows show the labelling alone.
const stdoutFloor = timed([process.execPath, join(cliDir, 'bench', 'json-floor.mjs'), input, '-'], true);
const stdoutFloorMbps = bytes / 1e6 / stdoutFloor.wall;
report('no file: floor (stdout)', stdoutFloor.wall, bytes, records, stdoutFloor.rssMib);
for (const command of ['reward', 'critical-steps']) {
  for (const threads of [1, 2]) {
    const r = timed([process.execPath, BIN, command, '--in', input, '--threads', String(threads)], true);
    report(`no file: parl ${command} --threads ${threads}`, r.wall, bytes, records, r.rssMib, stdoutFloorMbps);
  }
}

// Per record, in this process, on the first 100 000 records: where the labelling time goes.
const { recordCosts } = await import('./record-costs.mjs');
const sample = [];
for (let i = 0; i < Math.min(records, 100_000); i++) sample.push(JSON.stringify(record(i)));
for (const [step, micros] of Object.entries(recordCosts(sample))) console.log(`per record: ${step.padEnd(40)} ${fmt(micros)} µs`);

// Columnar: the same records as Parquet and Arrow IPC (written by parl's own converter of the bench).
const columnar = await import('./columnar-files.mjs').catch(() => undefined);
if (columnar !== undefined) {
  const n = Number(process.env.COLUMNAR_RECORDS ?? records);
  const files = await columnar.writeColumnarFiles(dir, n, record);
  const rateLine = (name, seconds, rate, rss, command) =>
    console.log(
      name.padEnd(44) +
        ` ${fmt(seconds).padStart(7)} s ${Math.round(rate).toString().padStart(9)} rec/s ${rss === undefined ? ' '.repeat(13) : `${fmt(rss, 0).padStart(5)} MiB RSS`} ${fmt(rate / jsonlRate[command]).padStart(6)}× JSONL --threads 1 (${command})`,
    );
  for (const [kind, path] of Object.entries(files)) {
    console.log(`${kind}: ${(statSync(path).size / 1048576).toFixed(1)} MiB, ${n} records`);
    for (const command of ['reward', 'critical-steps']) {
      const target = join(dir, `out.${kind}`);
      const r = timedWriting([process.execPath, BIN, command, '--in', path, '--out', target], target);
      rmSync(target);
      rateLine(`parl ${command} ${kind}`, r.wall, n / r.wall, r.rssMib, command);
    }
  }
  // Where the Parquet limit lies: parquet-wasm alone, in this process (no labelling, no file written).
  const parts = await columnar.timeParquetCodec(files.parquet);
  rateLine('parquet-wasm: decode row groups to Arrow', parts.decodeSeconds, n / parts.decodeSeconds, undefined, 'reward');
  console.log(`  of which the Arrow IPC hand-over from WebAssembly: ${fmt(parts.ipcSeconds)} s`);
  rateLine('parquet-wasm: encode them again', parts.encodeSeconds, n / parts.encodeSeconds, undefined, 'reward');
  // The writer properties parl uses, on parl's own reward output.
  const labelled = join(dir, 'labelled.arrows');
  timed([process.execPath, BIN, 'reward', '--in', files.arrow, '--out', labelled]);
  const { tableFromIPC, tableToIPC } = await import('apache-arrow');
  const labelledTable = tableFromIPC(readFileSync(labelled));
  rmSync(labelled);
  const computed = labelledTable.schema.fields.map((f) => f.name).slice(-15);
  const props = columnar.timeParquetWriterProperties(tableToIPC(labelledTable, 'stream'), computed);
  console.log(
    `parquet-wasm encoding the reward output: defaults ${fmt(props.defaults.seconds)} s ${(props.defaults.bytes / 1e6).toFixed(1)} MB, ` +
      `parl's properties ${fmt(props.parl.seconds)} s ${(props.parl.bytes / 1e6).toFixed(1)} MB (${fmt(props.parl.seconds / props.defaults.seconds)}× the time)`,
  );
}
console.log(`load average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
rmSync(dir, { recursive: true, force: true });
