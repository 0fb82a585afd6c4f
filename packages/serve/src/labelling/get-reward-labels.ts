/**
 * The part of `POST /get_reward` that needs no episode store: reading the body (JSON, and the
 * shape Fastify's schema checked before: `{labels, query?, prompts?}`), the label count, and
 * labelling every label that is a record. It runs on a labelling thread for a large body
 * (`thread-tasks.ts`), on the event loop for a small one; the labels that are episode ids are
 * left to the event loop, which holds the episodes. Everything large it hands back is a byte or
 * number array, moved without a copy.
 *
 * The messages are those the route gave when Fastify parsed and checked the body (its content
 * parser, then ajv with `allErrors: false`), in the same order: the body's JSON, its shape, then
 * (on the event loop) the query, then the label count, then each label in order.
 *
 * @module
 */
import { labelReward, ParlInputError, recordText, resolveRewardConfig, type RewardConfig } from '@parl/core';
import type { LabelledBody } from '@parl/io';
import { bodyExtras, encodeLogLines } from './body-extras.js';

/** The terms `extra_logs` carries, one list each. */
export const EXTRA_LOG_FIELDS = ['r_parallel', 'r_finish', 'r_perf', 'lambda1', 'lambda2'] as const;

/** Numbers kept per label: `total_reward`, then the {@link EXTRA_LOG_FIELDS}. */
export const LABEL_NUMBERS = 1 + EXTRA_LOG_FIELDS.length;

/** One `/get_reward` body to read. */
export interface GetRewardTask {
  /** The body as received (after gunzip); undefined when the request had none. */
  readonly body: Uint8Array | undefined;
  /** Whether the body came as protobuf (the server's parser passed it on unparsed: never the shape asked for). */
  readonly protobuf: boolean;
  /**
   * The reward config (sendable), or undefined when the query is bad: then only the body's JSON
   * and shape are checked, so that their message comes first, as it did.
   */
  readonly config: RewardConfig | undefined;
}

/** The body is not JSON of the shape asked for, or its labels do not match its queries: the message of the `400`. */
export interface GetRewardRefusal {
  /** The one-line message. */
  readonly error: string;
}

/** The body's JSON and shape are right (what is answered for a task without config). */
export interface GetRewardShapeChecked {
  /** Always true. */
  readonly checked: true;
}

/** The labels read and the records among them labelled. */
export interface GetRewardLabels {
  /** Labels in the body. */
  readonly count: number;
  /** {@link LABEL_NUMBERS} numbers per label (NaN for an episode id's, and for a number the label has not). */
  readonly numbers: Float64Array;
  /** The positions of the labels that are episode ids, in order. */
  readonly idAt: Uint32Array;
  /** Those ids (trimmed), one after the other: the `k`-th is `idText.slice(idEnds[k - 1] ?? 0, idEnds[k])` (one string crosses from a thread faster than many). */
  readonly idText: string;
  /** Where each id ends in {@link GetRewardLabels.idText}. */
  readonly idEnds: Uint32Array;
  /** The first label that is a bad record: where, and the message. Labels after it were not read. */
  readonly stop: { readonly at: number; readonly error: string } | undefined;
  /**
   * The records labelled here, as a `/v1/rewards` body's records are handed back: the JSON of
   * those with an `id` (for the episode store and the log), their log lines, and every one's
   * dashboard point. Empty when {@link GetRewardLabels.stop} is set.
   */
  readonly fresh: LabelledBody;
  /** A record with an `id` whose JSON could not be written (too deep): its message. */
  readonly writeError: string | undefined;
}

/** What reading a body gives. */
export type GetRewardOutcome = GetRewardRefusal | GetRewardShapeChecked | GetRewardLabels;

const ANY_OF = (path: string): string => `${path} must be string, ${path} must be object, ${path} must match a schema in anyOf`;

/** An array of strings, as the schema asked: the message for the first item that is not, or undefined. */
function stringsError(value: unknown, path: string): string | undefined {
  if (!Array.isArray(value)) return `${path} must be array`;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return `${path}/${i} must be string`;
  return undefined;
}

/** The body's shape, in the order ajv checked it (type, required, then each property in the schema's order). */
function shapeError(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'body must be object';
  const fields = body as Record<string, unknown>;
  if (fields['labels'] === undefined) return "body must have required property 'labels'";
  if (fields['query'] !== undefined) {
    const bad = stringsError(fields['query'], 'body/query');
    if (bad !== undefined) return bad;
  }
  if (fields['prompts'] !== undefined) {
    const bad = stringsError(fields['prompts'], 'body/prompts');
    if (bad !== undefined) return bad;
  }
  const labels = fields['labels'];
  if (!Array.isArray(labels)) return 'body/labels must be array';
  for (let i = 0; i < labels.length; i++) {
    const label: unknown = labels[i];
    if (typeof label !== 'string' && (typeof label !== 'object' || label === null || Array.isArray(label))) return ANY_OF(`body/labels/${i}`);
  }
  return undefined;
}

/** The body as the server's content parser gave it: the parsed JSON, or a message. */
function parsedBody(task: GetRewardTask): { value: unknown } | GetRewardRefusal {
  // No body: Fastify handed the route undefined. Protobuf: the raw bytes, an object without labels.
  if (task.body === undefined) return { value: undefined };
  if (task.protobuf) return { value: {} };
  try {
    return { value: JSON.parse(Buffer.from(task.body.buffer, task.body.byteOffset, task.body.byteLength).toString('utf8')) as unknown };
  } catch (err) {
    return { error: `the body is not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** A label that is a record given as JSON text, parsed, or the message naming it. */
function recordOfText(text: string, location: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new ParlInputError('label', text.length > 80 ? `${text.slice(0, 80)}…` : text, `an episode id or a spec §5 record as JSON (${err instanceof Error ? err.message : String(err)})`, location);
  }
}

/** The labelled records with an id, and everyone's dashboard point, as a {@link LabelledBody}. */
function freshBody(labelled: readonly Readonly<Record<string, unknown>>[]): { fresh: LabelledBody; writeError: string | undefined } {
  const texts: string[] = [];
  const ids: string[] = [];
  const spans: number[] = [];
  let at = 0;
  let writeError: string | undefined;
  const points = new Float64Array(labelled.length * bodyExtras.width);
  labelled.forEach((record, i) => {
    bodyExtras.numbers(record, points, i);
    const id = record['id'];
    if ((typeof id !== 'string' && typeof id !== 'number') || writeError !== undefined) return;
    let text: string;
    try {
      text = recordText(record, `record ${i + 1}`);
    } catch (err) {
      if (!(err instanceof ParlInputError)) throw err;
      writeError = err.message;
      return;
    }
    texts.push(text);
    ids.push(String(id));
    const end = at + Buffer.byteLength(text, 'utf8');
    spans.push(at, end);
    at = end;
  });
  const answer = new Uint8Array(Buffer.from(texts.join(''), 'utf8'));
  const spanArray = Uint32Array.from(spans);
  const extraBytes = encodeLogLines({ answer, ids, spans: spanArray });
  return { fresh: { answer, format: 'ndjson', count: labelled.length, ids, spans: spanArray, numbers: points, extraBytes }, writeError };
}

const NO_FRESH: LabelledBody = { answer: new Uint8Array(0), format: 'ndjson', count: 0, ids: [], spans: new Uint32Array(0), numbers: new Float64Array(0), extraBytes: new Uint8Array(0) };

/**
 * Read a `/get_reward` body: its JSON and shape; with a config, the label count and every label
 * that is a record (labelled with core's `labelReward`), up to the first bad one.
 *
 * @example
 * ```ts
 * const out = readGetRewardBody({ body: Buffer.from('{"labels":[{"r_perf":1}]}'), protobuf: false, config: {} });
 * ```
 */
export function readGetRewardBody(task: GetRewardTask): GetRewardOutcome {
  const parsed = parsedBody(task);
  if ('error' in parsed) return parsed;
  const bad = shapeError(parsed.value);
  if (bad !== undefined) return { error: bad };
  if (task.config === undefined) return { checked: true };
  const { labels, query } = parsed.value as { labels: (string | Record<string, unknown>)[]; query?: string[] };
  if (query !== undefined && query.length !== labels.length) {
    return { error: new ParlInputError('labels', `${labels.length} labels`, `one label per query (${query.length} queries)`).message };
  }
  const config = resolveRewardConfig(task.config);
  const numbers = new Float64Array(labels.length * LABEL_NUMBERS).fill(Number.NaN);
  const idAt: number[] = [];
  const ids: string[] = [];
  const idEnds: number[] = [];
  let idLength = 0;
  const labelled: Readonly<Record<string, unknown>>[] = [];
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i];
    const location = `labels[${i}]`;
    try {
      let record: unknown = label;
      if (typeof label === 'string') {
        const text = label.trim();
        if (!text.startsWith('{')) {
          idAt.push(i);
          ids.push(text);
          idLength += text.length;
          idEnds.push(idLength);
          continue;
        }
        record = recordOfText(text, location);
      }
      const out = labelReward(record, config, location) as unknown as Readonly<Record<string, unknown>>;
      writeLabelNumbers(numbers, i, out);
      labelled.push(out);
    } catch (err) {
      if (!(err instanceof ParlInputError)) throw err;
      return { count: labels.length, numbers, idAt: Uint32Array.from(idAt), idText: ids.join(''), idEnds: Uint32Array.from(idEnds), stop: { at: i, error: err.message }, fresh: NO_FRESH, writeError: undefined };
    }
  }
  return { count: labels.length, numbers, idAt: Uint32Array.from(idAt), idText: ids.join(''), idEnds: Uint32Array.from(idEnds), stop: undefined, ...freshBody(labelled) };
}

/** Write label `i`'s numbers (`total_reward`, then the {@link EXTRA_LOG_FIELDS}) from its labelled record. */
export function writeLabelNumbers(into: Float64Array, i: number, labelled: Readonly<Record<string, unknown>>): void {
  const at = i * LABEL_NUMBERS;
  const total = labelled['total_reward'];
  into[at] = typeof total === 'number' ? total : Number.NaN;
  EXTRA_LOG_FIELDS.forEach((field, f) => {
    const v = labelled[field];
    into[at + 1 + f] = typeof v === 'number' ? v : Number.NaN;
  });
}
