/**
 * The computed fields of `parl reward` / `parl critical-steps` for one Arrow record batch, as
 * columns. Where the batch's columns say exactly what a record says — numbers without nulls,
 * `r_perf` given directly, `stages` as `list<struct<main_steps, sub_steps: list<number>>>` — the
 * columns go straight into core's structure-of-arrays kernels (`criticalStepsBatch`,
 * `rewardBatch`, bit for bit equal to the one-record functions). Any other batch, or one the
 * kernels refuse, is labelled row by row with the same core function the JSONL path uses, so a bad
 * value is reported as `row N: field must be …` exactly like a bad JSONL line.
 *
 * @module
 */
import {
  allocateCriticalStepsBatchOutput,
  CRITICAL_STEPS_BATCH_FIELDS,
  allocateRewardBatchOutput,
  criticalStepsBatch,
  launchedSubagentsOfRows,
  ParlInputError,
  resolveRewardConfig,
  rewardBatch,
  REWARD_BATCH_FIELDS,
  type CriticalStepsBatchOutput,
  type ResolvedRewardConfig,
  type RewardBatchOutput,
} from '@parl/core';
import { Bool, DataType, Float64, Int32, makeData, makeVector, Vector, vectorFromArray, type Data, type RecordBatch } from 'apache-arrow';
import { labelFieldsOf, type LabelSpec } from '../../labellers.js';

/** The spec §2 fields, in the order the one-record functions add them (core's kernel outputs). */
const STRUCTURE_FIELDS = CRITICAL_STEPS_BATCH_FIELDS;
/** The spec §3 fields, in the order `rewardLabelFields` adds them (core's kernel outputs). */
const REWARD_FIELDS = REWARD_BATCH_FIELDS;
/** The budget fields of `parl critical-steps --budget`. */
const BUDGET_FIELDS = ['within_budget', 'budget_cut_stage'] as const;

/** The Arrow type of each computed field. */
function fieldType(name: string): Float64 | Int32 | Bool {
  if (name === 'num_stages' || name === 'max_width' || name === 'budget_cut_stage') return new Int32();
  if (name === 'within_budget') return new Bool();
  return new Float64();
}

/** Rows per call of the kernels: bounds the dense `[B, T, N]` staging of ragged stages. */
const KERNEL_ROWS = 4096;

/** Labels batches for one command. */
export interface BatchLabeller {
  /** The computed columns' names, in the order they are added (the same for every batch of a file). */
  readonly names: readonly string[];
  /** The computed columns for `batch`, whose first row is row `firstRow` (1-based) of the file. */
  columns(batch: RecordBatch, firstRow: number): Map<string, Data>;
}

/**
 * A {@link BatchLabeller} for `spec`, over files whose batches have `hasStages` (a `stages` column).
 *
 * @throws {@link @parl/core!ParlInputError} for a bad flag value
 */
export function batchLabeller(spec: LabelSpec, hasStages: boolean): BatchLabeller {
  const fieldsOf = labelFieldsOf(spec);
  const budget = spec.config.budget;
  const names: string[] =
    spec.command === 'reward'
      ? [...(hasStages ? STRUCTURE_FIELDS : []), ...REWARD_FIELDS]
      : [...STRUCTURE_FIELDS, ...(budget === undefined ? [] : BUDGET_FIELDS)];
  const config = spec.command === 'reward' ? resolveRewardConfig(spec.config) : undefined;

  const byRows = (batch: RecordBatch, firstRow: number): Map<string, Data> => {
    const values = new Map<string, unknown[]>(names.map((n) => [n, new Array<unknown>(batch.numRows).fill(null)]));
    for (let i = 0; i < batch.numRows; i++) {
      const fields = fieldsOf(rowRecord(batch, i), `row ${firstRow + i}`);
      for (const [name, column] of values) {
        const v = fields[name];
        if (v !== undefined) column[i] = v;
      }
    }
    const out = new Map<string, Data>();
    for (const [name, column] of values) out.set(name, vectorFromArray(column, fieldType(name)).data[0] as Data);
    return out;
  };

  return {
    names,
    columns(batch, firstRow) {
      // A budget changes r_perf and the structure per record (a cut): the one-record path does it.
      const kernelInput = budget === undefined ? kernelColumns(batch, spec.command === 'reward') : undefined;
      if (kernelInput === undefined) return byRows(batch, firstRow);
      try {
        return kernelLabel(kernelInput, batch.numRows, config);
      } catch (err) {
        // A value the kernels refuse: the row-by-row path names its row and field.
        if (err instanceof ParlInputError) return byRows(batch, firstRow);
        throw err;
      }
    },
  };
}

/** The kernels' inputs read from a batch's columns. */
interface KernelColumns {
  readonly rPerf: Float64Array | undefined;
  readonly numSubagents: Float64Array | undefined;
  readonly assigned: Float64Array | undefined;
  readonly completed: Float64Array | undefined;
  readonly trainingStep: Float64Array | undefined;
  readonly stages: RaggedStages | undefined;
}

/** `stages` as flat arrays: per row its stages' range, per stage its main steps and sub-steps' range. */
interface RaggedStages {
  readonly rowStart: Int32Array;
  readonly main: Float64Array;
  readonly subStart: Int32Array;
  readonly sub: Float64Array;
}

function child(batch: RecordBatch, name: string): Vector | undefined {
  return batch.schema.fields.some((f) => f.name === name) ? (batch.getChild(name) ?? undefined) : undefined;
}

/** A numeric vector without nulls as float64 (ints, floats, 64-bit ints); undefined for anything else. */
function numbers(vector: Vector | undefined): Float64Array | undefined {
  if (vector === undefined || vector.nullCount > 0) return undefined;
  if (!DataType.isFloat(vector.type) && !DataType.isInt(vector.type)) return undefined;
  const values = vector.toArray() as ArrayLike<number | bigint>;
  if (values instanceof Float64Array) return values;
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = Number(values[i]);
  return out;
}

/** A list's element ranges, from its offsets (relative to the list's own slice). */
function listRanges(data: Data): Int32Array | undefined {
  const offsets = data.valueOffsets as Int32Array | undefined;
  if (!(offsets instanceof Int32Array)) return undefined;
  return offsets.subarray(data.offset, data.offset + data.length + 1);
}

function raggedStages(vector: Vector): RaggedStages | undefined {
  if (vector.nullCount > 0 || vector.data.length !== 1 || !DataType.isList(vector.type)) return undefined;
  const list = vector.data[0] as Data;
  const rowStart = listRanges(list);
  const stageData = list.children[0];
  if (rowStart === undefined || stageData === undefined || !DataType.isStruct(stageData.type) || stageData.nullCount > 0) return undefined;
  const stageFields = stageData.type.children.map((f) => f.name);
  if (stageFields.some((n) => n !== 'main_steps' && n !== 'sub_steps')) return undefined;
  const mainData = stageData.children[stageFields.indexOf('main_steps')];
  const subListData = stageData.children[stageFields.indexOf('sub_steps')];
  if (mainData === undefined || subListData === undefined) return undefined;
  const main = numbers(makeVector(mainData));
  if (main === undefined || subListData.nullCount > 0 || !DataType.isList(subListData.type)) return undefined;
  const subStart = listRanges(subListData);
  const subValues = subListData.children[0];
  if (subStart === undefined || subValues === undefined) return undefined;
  const sub = numbers(makeVector(subValues));
  if (sub === undefined) return undefined;
  return { rowStart, main, subStart, sub };
}

/** The kernels' inputs, or undefined when the batch's columns do not map onto them exactly. */
function kernelColumns(batch: RecordBatch, reward: boolean): KernelColumns | undefined {
  for (const name of ['success', 'quality', 'trajectory_features']) if (child(batch, name) !== undefined) return undefined;
  const id = child(batch, 'id');
  if (id !== undefined && !DataType.isUtf8(id.type) && !DataType.isLargeUtf8(id.type) && !DataType.isInt(id.type) && !DataType.isFloat(id.type)) return undefined;
  const optional = (name: string): Float64Array | undefined | false => {
    const v = child(batch, name);
    if (v === undefined) return undefined;
    return numbers(v) ?? false;
  };
  const numSubagents = optional('num_subagents');
  const assigned = optional('assigned_subtasks');
  const completed = optional('completed_subtasks');
  const trainingStep = optional('training_step');
  const rPerf = optional('r_perf');
  if (numSubagents === false || assigned === false || completed === false || trainingStep === false || rPerf === false) return undefined;
  if (reward && rPerf === undefined) return undefined;
  const stagesVector = child(batch, 'stages');
  const stages = stagesVector === undefined ? undefined : raggedStages(stagesVector);
  if (stagesVector !== undefined && stages === undefined) return undefined;
  if (!reward && stages === undefined) return undefined;
  return { rPerf, numSubagents, assigned, completed, trainingStep, stages };
}

function kernelLabel(input: KernelColumns, rows: number, config: ResolvedRewardConfig | undefined): Map<string, Data> {
  const out = new Map<string, Data>();
  const structure = input.stages === undefined ? undefined : allocateCriticalStepsBatchOutput(rows);
  if (input.stages !== undefined && structure !== undefined) stagesKernel(input.stages, rows, structure);
  if (structure !== undefined) {
    for (const name of STRUCTURE_FIELDS) out.set(name, makeData({ type: fieldType(name), length: rows, nullCount: 0, data: structure[name] } as never));
  }
  if (config === undefined) return out;
  const launched = input.numSubagents ?? launchedSubagents(input.stages, rows);
  const reward: RewardBatchOutput = rewardBatch(
    {
      numSubagents: launched,
      ...(input.assigned === undefined ? {} : { assignedSubtasks: input.assigned }),
      ...(input.completed === undefined ? {} : { completedSubtasks: input.completed }),
      rPerf: input.rPerf as Float64Array,
      ...(input.trainingStep === undefined ? {} : { trainingStep: input.trainingStep }),
    },
    config,
    allocateRewardBatchOutput(rows),
  );
  for (const name of REWARD_FIELDS) out.set(name, makeData({ type: new Float64(), length: rows, nullCount: 0, data: reward[name] }));
  return out;
}

/** Sub-agents launched per row (the default of `num_subagents`), by core's one rule: 0 without stages. */
function launchedSubagents(stages: RaggedStages | undefined, rows: number): Float64Array {
  const out = new Float64Array(rows);
  if (stages === undefined) return out;
  return launchedSubagentsOfRows(stages.rowStart.subarray(0, rows + 1), stages.subStart, out);
}

/**
 * criticalStepsBatch over ragged stages, staged densely {@link KERNEL_ROWS} rows at a time into
 * arrays reused from block to block (zeroed where used: fresh memory costs more than the copy),
 * the results written straight into `result`.
 */
function stagesKernel(stages: RaggedStages, rows: number, result: CriticalStepsBatchOutput): void {
  const { rowStart, main, subStart, sub } = stages;
  let cells = new Float64Array(0);
  let slots = new Float64Array(0);
  let sizes = new Int32Array(0);
  const numStagesAll = new Int32Array(Math.min(KERNEL_ROWS, rows));
  for (let from = 0; from < rows; from += KERNEL_ROWS) {
    const B = Math.min(KERNEL_ROWS, rows - from);
    let T = 0;
    let N = 0;
    for (let b = from; b < from + B; b++) {
      const first = rowStart[b] as number;
      const last = rowStart[b + 1] as number;
      T = Math.max(T, last - first);
      for (let t = first; t < last; t++) N = Math.max(N, (subStart[t + 1] as number) - (subStart[t] as number));
    }
    if (cells.length < B * T * N) cells = new Float64Array(B * T * N);
    if (slots.length < B * T) {
      slots = new Float64Array(B * T);
      sizes = new Int32Array(B * T);
    }
    const subSteps = cells.subarray(0, B * T * N).fill(0);
    const mainSteps = slots.subarray(0, B * T).fill(0);
    const groupSizes = sizes.subarray(0, B * T).fill(0);
    const numStages = numStagesAll.subarray(0, B);
    for (let b = 0; b < B; b++) {
      const first = rowStart[from + b] as number;
      const last = rowStart[from + b + 1] as number;
      numStages[b] = last - first;
      for (let t = 0; t < last - first; t++) {
        const s = first + t;
        const slot = b * T + t;
        mainSteps[slot] = main[s] as number;
        const s0 = subStart[s] as number;
        const width = (subStart[s + 1] as number) - s0;
        groupSizes[slot] = width;
        // A plain loop: a subarray per stage (a few sub-agents) costs more than the copy itself.
        const at = slot * N;
        for (let i = 0; i < width; i++) subSteps[at + i] = sub[s0 + i] as number;
      }
    }
    const part = Object.fromEntries(CRITICAL_STEPS_BATCH_FIELDS.map((k) => [k, result[k].subarray(from, from + B)])) as unknown as CriticalStepsBatchOutput;
    criticalStepsBatch({ batch: B, stages: T, width: N, subSteps, groupSizes, mainSteps, numStages }, part);
  }
}

/** One row as the record a JSONL line would hold: nulls are absent fields, lists arrays, structs objects. */
export function rowRecord(batch: RecordBatch, row: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  batch.schema.fields.forEach((field, j) => {
    const value = plain(batch.getChildAt(j)?.get(row));
    if (value !== undefined) out[field.name] = value;
  });
  return out;
}

function plain(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value !== 'object') return value;
  if (value instanceof Date) return value.toISOString();
  // A list is a Vector; a struct is a row object (which iterates as [key, value] pairs).
  if (value instanceof Vector) return Array.from(value as Iterable<unknown>, (x) => plain(x) ?? null);
  const v = value as { toJSON?: () => unknown };
  if (typeof v.toJSON === 'function') {
    const json = v.toJSON();
    if (typeof json !== 'object' || json === null) return json;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(json)) {
      const p = plain(x);
      if (p !== undefined) out[k] = p;
    }
    return out;
  }
  return value;
}
