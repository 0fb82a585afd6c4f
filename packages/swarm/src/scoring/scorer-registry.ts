/**
 * The one registry of scorers (spec §10.2): each kind's description, what answer it needs, and
 * how it is made. `--scorer` and a task row's `scorer` name an entry; the built-in suites' tasks
 * use the same entries.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import type { JudgeClient } from './judge-client.js';
import { exactScorer } from './exact-scorer.js';
import { includesScorer } from './includes-scorer.js';
import { judgeScorer } from './judge-scorer.js';
import { DEFAULT_SCORER_TIMEOUT_MS, loadModuleScorer } from './module-scorer.js';
import { numberScorer } from './number-scorer.js';
import { regexScorer } from './regex-scorer.js';
import type { Scorer } from './score.js';
import { parseScorerSpec, type ScorerKind, type ScorerSpec } from './scorer-spec.js';
import { tableScorer } from './table-scorer.js';

/** What answer a scorer compares with: text (a string or list), a table, any answer, or none needed. */
export type AnswerNeed = 'text' | 'table' | 'any' | 'none';

/** What a run gives its scorers. */
export interface ScorerContext {
  /** The judge, for `judge` and tables' `judge` columns. */
  readonly judge?: JudgeClient | undefined;
  /** Milliseconds a `module:` scorer may take on one answer (default 60 000: `--scorer-timeout` 60). */
  readonly scorerTimeoutMs?: number | undefined;
}

/** One entry of the registry. */
export interface ScorerEntry {
  /** What r_perf is, in words (the docs' table). */
  readonly description: string;
  /** What answer a row needs for it. */
  readonly needs: AnswerNeed;
  /** Whether it calls the judge. */
  readonly usesJudge: boolean;
  /** Make the scorer (loading a module, for `module:`). */
  make(spec: ScorerSpec, context: ScorerContext): Scorer | Promise<Scorer>;
}

function needJudge(context: ScorerContext): JudgeClient {
  if (context.judge === undefined) throw new ParlInputError('--judge-model', undefined, 'given, with --judge-base-url, for the judge scorer');
  return context.judge;
}

/** The scorers, by kind. */
export const SCORERS: Readonly<Record<ScorerKind, ScorerEntry>> = {
  exact: { description: '1 when the normalised answer equals a normalised accepted answer', needs: 'text', usesJudge: false, make: () => exactScorer },
  includes: { description: '1 when a normalised accepted answer occurs in the normalised answer', needs: 'text', usesJudge: false, make: () => includesScorer },
  regex: { description: '1 when the pattern matches the answer', needs: 'none', usesJudge: false, make: (spec) => regexScorer(spec.argument as string) },
  number: { description: '1 when the last number of the answer is within TOL of the accepted number', needs: 'text', usesJudge: false, make: (spec) => numberScorer(spec.argument as string) },
  table: { description: 'item-level F1 of the answer\'s table, rows matched on the unique columns', needs: 'table', usesJudge: false, make: (_spec, context) => tableScorer(context.judge) },
  judge: { description: '1 when the LLM judge says correct: yes', needs: 'any', usesJudge: true, make: (_spec, context) => judgeScorer(needJudge(context)) },
  module: { description: 'what the module\'s default export returns', needs: 'none', usesJudge: false, make: (spec, context) => loadModuleScorer(spec.argument as string, '--scorer', undefined, context.scorerTimeoutMs ?? DEFAULT_SCORER_TIMEOUT_MS) },
};

/** The scorer named `text` (checked), made once: modules are loaded here. */
export async function makeScorer(text: string, context: ScorerContext): Promise<Scorer> {
  const spec = parseScorerSpec(text);
  return SCORERS[spec.kind].make(spec, context);
}

/**
 * The scorers of a run, one per distinct name, made before any episode starts.
 *
 * @throws {@link @parl/core!ParlInputError} for a name that is no scorer, a module that does not
 *   load, or `judge` without a judge
 */
export async function makeScorers(names: Iterable<string>, context: ScorerContext): Promise<Map<string, Scorer>> {
  const scorers = new Map<string, Scorer>();
  for (const name of names) if (!scorers.has(name)) scorers.set(name, await makeScorer(name, context));
  return scorers;
}
