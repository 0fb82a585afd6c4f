/**
 * `wide` (spec §10): N entities × M attributes to fill in from a corpus that also holds as many
 * other entities; the answer is the table, scored by `table` (item-level F1). Reads
 * `entities` and `attributes`.
 *
 * @module
 */
import { corpusTools, type CorpusDocument } from '../corpus.js';
import { answerTableTask } from './answer-table-task.js';
import { ATTRIBUTE_NAMES, entityAttributes, entityName } from './suite-corpus-words.js';
import type { SuiteEntry } from './suite-entry.js';

/** The `wide` suite. */
export const WIDE_SUITE: SuiteEntry = {
  description: 'many independent look-ups into a table; item-level F1 against the answer table, as WideSearch scores',
  settings: ['entities', 'attributes'],
  task(id, _index, rng, { entities, attributes }) {
    const taken = new Set<string>();
    const docs: CorpusDocument[] = [];
    // The corpus holds the asked entities and as many others (search must discriminate).
    for (let i = 0; i < entities * 2; i++) docs.push({ id: `doc-${i + 1}`, entity: entityName(rng, taken), attributes: entityAttributes(rng) });
    const asked = docs.filter((_, i) => i % 2 === 0);
    const columns = [...ATTRIBUTE_NAMES].sort(() => rng.next() - 0.5).slice(0, attributes);
    const rows = asked.flatMap((d) => columns.map((c) => [d.entity, c, d.attributes[c] as string] as const));
    const prompt =
      `Fill in this table: for each of the entities ${asked.map((d) => d.entity).join(', ')}, give its ${columns.join(', ')}. ` +
      'The corpus has the facts. Answer with one line per value: entity | attribute | value';
    return answerTableTask({ id, kind: 'wide', prompt, tools: corpusTools(docs) }, rows, ['entity', 'attribute']);
  },
};
