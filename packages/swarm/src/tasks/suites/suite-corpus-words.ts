/**
 * The words the built-in suites make their corpora of: entity names from syllables, and each
 * entity's attributes.
 *
 * @module
 */
import type { SeededRandom } from '../seeded-random.js';

const SYLLABLES = ['ka', 'ro', 'mi', 'ten', 'sa', 'vel', 'or', 'lu', 'dan', 'pe', 'zi', 'mar', 'qui', 'bo', 'nel', 'ra', 'fin', 'ost'];
const ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  color: ['amber', 'teal', 'crimson', 'ivory', 'olive', 'violet', 'slate', 'coral'],
  river: ['Asel', 'Borun', 'Carth', 'Dovey', 'Elmar', 'Fenn', 'Garra', 'Hollin'],
  mascot: ['heron', 'otter', 'lynx', 'ibex', 'marten', 'crane', 'badger', 'gecko'],
  metal: ['tin', 'zinc', 'cobalt', 'nickel', 'copper', 'iron', 'silver', 'lead'],
  festival: ['lanterns', 'kites', 'bells', 'masks', 'drums', 'boats', 'ribbons', 'mirrors'],
};

/** The attribute names every entity has. */
export const ATTRIBUTE_NAMES: readonly string[] = [...Object.keys(ATTRIBUTES), 'founded'];

/** A new two-word entity name, not in `taken` (added to it). */
export function entityName(rng: SeededRandom, taken: Set<string>): string {
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

/** An entity's attributes. */
export function entityAttributes(rng: SeededRandom): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ATTRIBUTE_NAMES) out[name] = name === 'founded' ? String(1200 + rng.int(800)) : rng.pick(ATTRIBUTES[name] as readonly string[]);
  return out;
}
