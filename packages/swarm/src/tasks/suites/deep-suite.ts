/**
 * `deep` (spec §10): a chain of successors, each look-up needing the previous answer, so that
 * parallelism cannot help; the answer is the one `entity | attribute | value` row of the entity
 * the chain ends at, scored by `table`. Reads `hops`.
 *
 * @module
 */
import { corpusTools, type CorpusDocument } from '../corpus.js';
import { answerTableTask } from './answer-table-task.js';
import { ATTRIBUTE_NAMES, entityAttributes, entityName } from './suite-corpus-words.js';
import type { SuiteEntry } from './suite-entry.js';

/** The `deep` suite. */
export const DEEP_SUITE: SuiteEntry = {
  description: 'a chain in which each look-up needs the previous answer: parallelism cannot help',
  settings: ['hops'],
  task(id, _index, rng, { hops }) {
    const taken = new Set<string>();
    const docs: CorpusDocument[] = [];
    for (let i = 0; i <= hops + 2; i++) docs.push({ id: `doc-${i + 1}`, entity: entityName(rng, taken), attributes: entityAttributes(rng) });
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
    const prompt =
      `Start at ${start.entity}. Take its successor, then that entity's successor, and so on: ${hops} steps in all. ` +
      `What is the ${attribute} of the entity you reach? The corpus has the facts. Answer with one line: entity | attribute | value`;
    return answerTableTask({ id, kind: 'deep', prompt, tools: corpusTools(chained) }, [[end.entity, attribute, end.attributes[attribute] as string]], ['entity', 'attribute']);
  },
};
