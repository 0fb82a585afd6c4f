/**
 * The task suites of spec §10, generated offline from a seed: `wide` (N entities × M attributes
 * to fill in; item-level F1), `deep` (a chain of successors, each look-up needing the previous
 * answer; right or wrong) and `mixed` (both, alternating). No prompt asks for parallelism.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';
import { itemF1, answerItems, type AnswerItem } from './answer-lines.js';
import { corpusTools, type CorpusDocument } from './corpus.js';
import { SeededRandom } from './seeded-random.js';
import { SUITE_NAMES, type SuiteName, type SwarmTask } from './task.js';

/** The shape of a generated suite. */
export interface SuiteOptions {
  /** Tasks to generate (≥ 1). */
  readonly tasks: number;
  /** The seed: the same seed gives the same tasks. */
  readonly seed: number;
  /** `wide`: entities per task (rows). */
  readonly entities?: number;
  /** `wide`: attributes per entity (columns). */
  readonly attributes?: number;
  /** `deep`: successor hops per task. */
  readonly hops?: number;
}

/** Defaults: 6 × 3 tables, 4 hops. */
export const SUITE_DEFAULTS = { entities: 6, attributes: 3, hops: 4 } as const;

const SYLLABLES = ['ka', 'ro', 'mi', 'ten', 'sa', 'vel', 'or', 'lu', 'dan', 'pe', 'zi', 'mar', 'qui', 'bo', 'nel', 'ra', 'fin', 'ost'];
const ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  color: ['amber', 'teal', 'crimson', 'ivory', 'olive', 'violet', 'slate', 'coral'],
  river: ['Asel', 'Borun', 'Carth', 'Dovey', 'Elmar', 'Fenn', 'Garra', 'Hollin'],
  mascot: ['heron', 'otter', 'lynx', 'ibex', 'marten', 'crane', 'badger', 'gecko'],
  metal: ['tin', 'zinc', 'cobalt', 'nickel', 'copper', 'iron', 'silver', 'lead'],
  festival: ['lanterns', 'kites', 'bells', 'masks', 'drums', 'boats', 'ribbons', 'mirrors'],
};
const ATTRIBUTE_NAMES = [...Object.keys(ATTRIBUTES), 'founded'];

function nameOf(rng: SeededRandom, taken: Set<string>): string {
  for (;;) {
    const word = (): string => {
      const w = rng.pick(SYLLABLES) + rng.pick(SYLLABLES) + (rng.next() < 0.5 ? rng.pick(SYLLABLES) : '');
      return w[0]?.toUpperCase() + w.slice(1);
    };
    const name = `${word()} ${word()}`;
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
}

function attributesOf(rng: SeededRandom): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ATTRIBUTE_NAMES) out[name] = name === 'founded' ? String(1200 + rng.int(800)) : rng.pick(ATTRIBUTES[name] as readonly string[]);
  return out;
}

function wideTask(id: string, rng: SeededRandom, entities: number, attributes: number): SwarmTask {
  const taken = new Set<string>();
  const docs: CorpusDocument[] = [];
  // The corpus holds the asked entities and as many others (search must discriminate).
  for (let i = 0; i < entities * 2; i++) docs.push({ id: `doc-${i + 1}`, entity: nameOf(rng, taken), attributes: attributesOf(rng) });
  const asked = docs.filter((_, i) => i % 2 === 0);
  const columns = [...ATTRIBUTE_NAMES].sort(() => rng.next() - 0.5).slice(0, attributes);
  const gold: AnswerItem[] = asked.flatMap((d) => columns.map((c) => ({ entity: d.entity, attribute: c, value: d.attributes[c] as string })));
  const prompt =
    `Fill in this table: for each of the entities ${asked.map((d) => d.entity).join(', ')}, give its ${columns.join(', ')}. ` +
    'The corpus has the facts. Answer with one line per value: entity | attribute | value';
  return { id, kind: 'wide', prompt, tools: corpusTools(docs), score: (answer) => itemF1(answer, gold) };
}

function deepTask(id: string, rng: SeededRandom, hops: number): SwarmTask {
  const taken = new Set<string>();
  const docs: CorpusDocument[] = [];
  for (let i = 0; i <= hops + 2; i++) docs.push({ id: `doc-${i + 1}`, entity: nameOf(rng, taken), attributes: attributesOf(rng) });
  // The chain visits the documents in a shuffled order; each points to the next by name.
  const order = docs.map((_, i) => i).sort(() => rng.next() - 0.5);
  const chained: CorpusDocument[] = docs.map((d) => ({ ...d, attributes: { ...d.attributes } }));
  for (let k = 0; k < order.length; k++) {
    const here = chained[order[k] as number] as CorpusDocument;
    const there = chained[order[(k + 1) % order.length] as number] as CorpusDocument;
    (here.attributes as Record<string, string>)['successor'] = there.entity;
  }
  const start = chained[order[0] as number] as CorpusDocument;
  const end = chained[order[hops] as number] as CorpusDocument;
  const attribute = rng.pick(ATTRIBUTE_NAMES);
  const expected = (end.attributes[attribute] as string).toLowerCase();
  const prompt =
    `Start at ${start.entity}. Take its successor, then that entity's successor, and so on: ${hops} steps in all. ` +
    `What is the ${attribute} of the entity you reach? The corpus has the facts. Answer with one line: entity | attribute | value`;
  const score = (answer: string): number => (answerItems(answer).some((item) => item.attribute === attribute && item.value === expected) ? 1 : 0);
  return { id, kind: 'deep', prompt, tools: corpusTools(chained), score };
}

function positiveInt(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 1) throw new ParlInputError(field, value, 'an integer ≥ 1');
  return value;
}

/**
 * Generate a suite's tasks.
 *
 * @param suite - `wide`, `deep` or `mixed`
 * @param options - count, seed and shape (see {@link SuiteOptions})
 * @throws ParlInputError for an unknown suite or a bad count
 */
export function generateSuite(suite: SuiteName, options: SuiteOptions): SwarmTask[] {
  if (!(SUITE_NAMES as readonly string[]).includes(suite)) throw new ParlInputError('suite', suite, `one of ${SUITE_NAMES.join(', ')}`);
  const count = positiveInt(options.tasks, 'tasks');
  if (!Number.isInteger(options.seed)) throw new ParlInputError('seed', options.seed, 'an integer');
  const entities = positiveInt(options.entities ?? SUITE_DEFAULTS.entities, 'entities');
  const attributes = positiveInt(options.attributes ?? SUITE_DEFAULTS.attributes, 'attributes');
  if (attributes > ATTRIBUTE_NAMES.length) throw new ParlInputError('attributes', attributes, `at most ${ATTRIBUTE_NAMES.length}`);
  const hops = positiveInt(options.hops ?? SUITE_DEFAULTS.hops, 'hops');
  const tasks: SwarmTask[] = [];
  for (let i = 0; i < count; i++) {
    // One generator per task: task i is the same whatever the count.
    const rng = new SeededRandom((options.seed * 7919 + i * 104729) >>> 0);
    const kind = suite === 'mixed' ? (i % 2 === 0 ? 'wide' : 'deep') : suite;
    const id = `${suite}-s${options.seed}-${i}`;
    tasks.push(kind === 'wide' ? wideTask(id, rng, entities, attributes) : deepTask(id, rng, hops));
  }
  return tasks;
}
