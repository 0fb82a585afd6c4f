/**
 * The answer format of the suites — one `entity | attribute | value` line per item — and the
 * item-level F1 that WideSearch scores with.
 *
 * @module
 */

/** One item of an answer table. */
export interface AnswerItem {
  readonly entity: string;
  readonly attribute: string;
  readonly value: string;
}

function norm(text: string): string {
  return text.trim().replace(/^[`*"']+|[`*"'.]+$/g, '').replace(/\s+/g, ' ').toLowerCase();
}

/** The items of an answer text: every line with three `|`-separated fields (markdown table rows too). */
export function answerItems(text: string): AnswerItem[] {
  const items: AnswerItem[] = [];
  for (const raw of text.split('\n')) {
    const fields = raw.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map(norm);
    if (fields.length !== 3 || fields.some((f) => f === '' || /^-+$/.test(f))) continue;
    const [entity, attribute, value] = fields as [string, string, string];
    items.push({ entity, attribute, value });
  }
  return items;
}

/** The key of an item: its entity and attribute, normalised. */
function keyOf(item: AnswerItem): string {
  return `${norm(item.entity)}\u0000${norm(item.attribute)}`;
}

/**
 * Item-level F1 of an answer against the answer table: an item is correct when its entity and
 * attribute are in the table with the same value (compared trimmed, case-insensitive). Each
 * (entity, attribute) counts once, its first value.
 *
 * @returns F1 in [0, 1]; 0 when nothing is correct
 */
export function itemF1(answer: string, gold: readonly AnswerItem[]): number {
  const truth = new Map(gold.map((g) => [keyOf(g), norm(g.value)]));
  const predicted = new Map<string, string>();
  for (const item of answerItems(answer)) {
    const key = keyOf(item);
    if (!predicted.has(key)) predicted.set(key, norm(item.value));
  }
  let correct = 0;
  for (const [key, value] of predicted) if (truth.get(key) === value) correct++;
  if (correct === 0) return 0;
  const precision = correct / predicted.size;
  const recall = correct / truth.size;
  return (2 * precision * recall) / (precision + recall);
}
