/**
 * The rollout file: each finished sample is appended to `<out>.partial` as one line (one write
 * per sample) the moment it finishes; the lines carry `rollout_options`, the flags that shaped
 * their episodes, so a rerun resumes only a run of the same configuration. Opening the file reads
 * what is there as a stream and keeps only where each line is (never the lines themselves): a file
 * that is not a rollout file is refused, a different configuration is refused naming the flags
 * that differ (or, with `restart`, the old files are removed — last, when the first new line is
 * appended, so a run that fails before it leaves them as they were), and a last line cut short by
 * a crash is cut off before anything is appended. Reading, the torn last line and appending (each
 * line synced to disk) are `@parl/io`'s (`appendedLines`, `openLineAppender`).
 *
 * @module
 */
import { rm } from 'node:fs/promises';
import { ParlInputError } from '@parl/core';
import { appendedLines, openLineAppender, partialPathOf, readAppendedLine, type AppendedLine } from '@parl/io';

/** The field of every rollout line that holds the flag texts of the options that shaped its episode. */
export const ROLLOUT_OPTIONS_FIELD = 'rollout_options';

/** What an existing `--out` file must be, in words. */
export const ROLLOUT_FILE_KIND = 'a rollout file of parl swarm run';

/** A finished sample as kept in the partial file (everything but the advantage). */
export interface SampleLine {
  readonly group_id: string;
  readonly sample: number;
  readonly [field: string]: unknown;
}

/** The flag texts (`model` → `Qwen3-4B`) of the options that shape an episode. */
export type RunOptionTexts = Readonly<Record<string, string>>;

/** The key of a sample: task and sample number. */
export function sampleKey(groupId: string, sample: number): string {
  return `${groupId}\u0000${sample}`;
}

/** Where a finished sample's line is, and its total reward (all its group's advantages need). */
export interface SampleRef {
  readonly group_id: string;
  readonly sample: number;
  readonly total_reward: number;
  /** The file holding the line, its byte offset and length; or the line itself (no file). */
  readonly at: { readonly path: string; readonly offset: number; readonly bytes: number } | { readonly line: SampleLine };
}

/** Every rollout line starts so (its first field is `group_id`): how a line cut short is told apart from foreign text. */
const LINE_START = '{"group_id":';

/** The line of a finished sample, fields in their file order: group, sample, options, then the rest. */
export function sampleLine(line: SampleLine, options: RunOptionTexts): SampleLine {
  const { group_id, sample, [ROLLOUT_OPTIONS_FIELD]: _old, advantage: _advantage, ...rest } = line as SampleLine & { advantage?: unknown };
  return { group_id, sample, [ROLLOUT_OPTIONS_FIELD]: options, ...rest };
}

type Parsed = { readonly line: SampleLine; readonly options: RunOptionTexts; readonly reward: number } | { readonly problem: string };

function parseLine(text: string | undefined, lineNo: number): Parsed {
  if (text === undefined) return { problem: `line ${lineNo} is not UTF-8 text` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: `line ${lineNo} is not JSON` };
  }
  const v = value as Partial<Record<string, unknown>> | null;
  const options = v?.[ROLLOUT_OPTIONS_FIELD];
  if (
    typeof v !== 'object' || v === null || Array.isArray(v) ||
    typeof v['group_id'] !== 'string' || typeof v['sample'] !== 'number' || !Number.isInteger(v['sample']) ||
    typeof options !== 'object' || options === null || Array.isArray(options) ||
    typeof v['total_reward'] !== 'number'
  ) {
    return { problem: `line ${lineNo} is not a rollout line (group_id, sample, total_reward and ${ROLLOUT_OPTIONS_FIELD})` };
  }
  return { line: v as SampleLine, options: options as RunOptionTexts, reward: v['total_reward'] };
}

/**
 * Whether the file at `path` is a rollout file, judged by its first line (for the check of every
 * output before a run; opening it checks every line): undefined when it is, else why not.
 */
export async function recogniseRolloutFile(path: string): Promise<string | undefined> {
  for await (const l of appendedLines(path, LINE_START)) {
    if (!l.complete) return l.torn ? undefined : `line ${l.lineNo} is not a rollout line`;
    if (l.text?.trim() === '') continue;
    const parsed = parseLine(l.text, l.lineNo);
    return 'problem' in parsed ? parsed.problem : undefined;
  }
  return undefined;
}

/**
 * `--model a` (now b) for each option whose text differs between a file's lines and this run
 * (`ignore`: flags this run does not compare); empty when they are the same configuration. `parl
 * swarm run`'s resume and `parl swarm eval`'s both compare their flag texts with it.
 */
export function differences(theirs: RunOptionTexts, ours: RunOptionTexts, ignore: ReadonlySet<string>): string[] {
  const keys = [...new Set([...Object.keys(theirs), ...Object.keys(ours)])].filter((k) => !ignore.has(k)).sort();
  const shown = (v: string | undefined): string => (v === undefined ? 'not given' : v);
  return keys.filter((k) => theirs[k] !== ours[k]).map((k) => `--${k} ${shown(theirs[k])} (now ${shown(ours[k])})`);
}

/** How to open the rollout file. */
export interface OpenRolloutFileOptions {
  /** The flag texts of this run's episode options; lines of other options are refused. */
  readonly options: RunOptionTexts;
  /** Flags not compared, whatever a line says of them (options this run does not use: an older line may name them). */
  readonly ignore?: ReadonlySet<string>;
  /**
   * Start over: the old lines are not resumed, and the rollout file and its partial file (checked
   * to be rollout files) are removed when the first new line is appended — never before, so a run
   * that fails first (a bad input, a tool that does not start, a dead endpoint) leaves them intact.
   */
  readonly restart?: boolean;
  /** The flag named in errors (default `--out`). */
  readonly flag?: string;
  /** With `restart`: called when the old files are removed (the first new line), for what else starts over with them (the spans file). */
  readonly onStartOver?: () => Promise<void>;
}

/** An open rollout file. */
export interface RolloutFile {
  /** The final file. */
  readonly path: string;
  /** The samples finished already (of the file and of its partial file), by {@link sampleKey}. */
  readonly finished: ReadonlyMap<string, SampleRef>;
  /** Whether a partial file held finished samples (the run is a resume). */
  readonly resumed: boolean;
  /** Whether old files of a `restart` are still there (no new line was appended yet): the final file must then not be replaced. */
  readonly restartPending: boolean;
  /** Append one finished sample to the partial file, synced to disk; where it went (with `restart`, the old files are removed first). */
  append(line: SampleLine): Promise<SampleRef>;
  /** Remove the partial file (once the final file is in place). */
  dropPartial(): Promise<void>;
}

/**
 * Open the rollout file `out` (and `<out>.partial`) for a run with `options`: read where every
 * finished sample is, check each line is a rollout line of the same options, and cut a last line
 * of the partial file that a crash left without its newline.
 *
 * @throws {@link @parl/core!ParlInputError} naming `--out` and the file: a line that is not a rollout
 *   line; lines of other options (naming each flag that differs, unless `restart`)
 */
export async function openRolloutFile(out: string, open: OpenRolloutFileOptions): Promise<RolloutFile> {
  const flag = open.flag ?? '--out';
  const partial = partialPathOf(out);
  const finished = new Map<string, SampleRef>();
  let mismatch: { file: string; lineNo: number; diff: string[] } | undefined;
  let partialLines = 0;
  let torn: AppendedLine | undefined;
  for (const file of [out, partial]) {
    for await (const l of appendedLines(file, LINE_START)) {
      if (l.text?.trim() === '' && l.complete) continue;
      if (l.torn && file === partial) {
        // A crash mid-append: not a finished sample. Cut it before the next append.
        torn = l;
        break;
      }
      const parsed = parseLine(l.text, l.lineNo);
      if ('problem' in parsed) {
        throw new ParlInputError(flag, out, `a new file or ${ROLLOUT_FILE_KIND}, which ${file} is not (${parsed.problem}): parl never replaces a file it did not write; choose another path or move it away`, undefined, 'PARL_ERR_CONFLICT');
      }
      const diff = differences(parsed.options, open.options, open.ignore ?? new Set());
      if (diff.length > 0) {
        mismatch ??= { file, lineNo: l.lineNo, diff };
        continue;
      }
      if (file === partial) partialLines++;
      finished.set(sampleKey(parsed.line.group_id, parsed.line.sample), {
        group_id: parsed.line.group_id,
        sample: parsed.line.sample,
        total_reward: parsed.reward,
        at: { path: file, offset: l.offset, bytes: l.bytes },
      });
    }
  }
  let restartPending = open.restart === true;
  if (restartPending) {
    finished.clear();
    partialLines = 0;
  } else {
    if (mismatch !== undefined) {
      throw new ParlInputError(
        flag,
        out,
        `a rollout file of this run's configuration to resume, which ${mismatch.file} is not (line ${mismatch.lineNo} was run with ${mismatch.diff.join(', ')}): ` +
          'rerun with its flags to resume it, add --restart to start over (replacing it), or choose another --out',
        undefined,
        'PARL_ERR_CONFLICT',
      );
    }
  }
  let appender = await openLineAppender(partial, { keep: true, durable: true, torn: restartPending ? undefined : torn });
  return {
    path: out,
    finished,
    resumed: partialLines > 0,
    get restartPending() {
      return restartPending;
    },
    async append(line) {
      if (restartPending) {
        // Last: every input was checked, every tool started, and a first episode finished.
        await rm(out, { force: true });
        appender = await openLineAppender(partial, { keep: false, durable: true });
        await open.onStartOver?.();
        restartPending = false;
      }
      // Synced before the caller goes on: a reward is posted only for a line that is on disk (spec §10.6).
      const { offset, bytes } = await appender.append(JSON.stringify(line));
      return { group_id: line.group_id, sample: line.sample, total_reward: line['total_reward'] as number, at: { path: partial, offset, bytes } };
    },
    dropPartial: () => rm(partial, { force: true }),
  };
}

/** The line a reference points at. */
export async function readSample(ref: SampleRef): Promise<SampleLine> {
  if ('line' in ref.at) return ref.at.line;
  return JSON.parse(await readAppendedLine(ref.at.path, ref.at)) as SampleLine;
}
