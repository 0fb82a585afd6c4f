/**
 * A task's corpus — one document per entity, `attribute: value` lines — and the sub-agents'
 * tools over it: `search` (documents whose entity name the query contains) and `open`.
 *
 * @module
 */
import type { TaskTool } from './task.js';

/** One document: an entity and its attributes. */
export interface CorpusDocument {
  /** `doc-<n>`. */
  readonly id: string;
  /** The entity's name (the document's title). */
  readonly entity: string;
  /** Attribute name → value, in the order the document lists them. */
  readonly attributes: Readonly<Record<string, string>>;
}

/** The most documents `search` returns. */
export const SEARCH_LIMIT = 8;

/** The text of a document, as `open` returns it. */
export function documentText(doc: CorpusDocument): string {
  return [`${doc.id}: ${doc.entity}`, ...Object.entries(doc.attributes).map(([k, v]) => `${k}: ${v}`)].join('\n');
}

/** The `search` and `open` tools over `docs`. */
export function corpusTools(docs: readonly CorpusDocument[]): TaskTool[] {
  const byId = new Map(docs.map((d) => [d.id, d]));
  return [
    {
      name: 'search',
      description: 'Search the corpus: returns the id and title of each document whose entity is named in the query.',
      parameters: { query: 'Text naming the entities to look for' },
      run({ query }) {
        const q = (query ?? '').toLowerCase();
        const hits = docs.filter((d) => q.includes(d.entity.toLowerCase())).slice(0, SEARCH_LIMIT);
        return hits.length === 0 ? 'no documents found' : hits.map((d) => `${d.id}: ${d.entity}`).join('\n');
      },
    },
    {
      name: 'open',
      description: 'Open a document by its id (as search returns it): its attributes, one per line.',
      parameters: { id: 'A document id such as doc-3' },
      run({ id }) {
        const doc = byId.get((id ?? '').trim());
        return doc === undefined ? `error: no document ${JSON.stringify(id)}` : documentText(doc);
      },
    },
  ];
}
