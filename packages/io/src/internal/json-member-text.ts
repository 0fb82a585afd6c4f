/**
 * The JSON text of one object member whose value is a number, a boolean or null, written without
 * `JSON.stringify` of an object: the text is the very one `JSON.stringify` writes for that member
 * (the key quoted and escaped as it quotes it, a finite number as `String` spells it — `-0` as
 * `0`, `1e+21`, `5e-324` — and a non-finite number as `null`).
 *
 * @module
 */

/** A JSON scalar: the values {@link jsonScalarText} writes. */
export type JsonScalar = number | boolean | null;

/**
 * The text `JSON.stringify(value)` gives for a number, a boolean or null. For a finite number
 * JSON.stringify writes `ToString(value)` (ECMA-262 SerializeJSONProperty), which is what
 * `String(value)` is; NaN and ±Infinity become `null`.
 *
 * @example
 * ```ts
 * jsonScalarText(-0); // '0'
 * jsonScalarText(1e21); // '1e+21'
 * jsonScalarText(Infinity); // 'null'
 * ```
 */
export function jsonScalarText(value: JsonScalar): string {
  if (typeof value === 'number') {
    // A 32-bit integer (-0 included, written `0`): V8 spells these fast and caches them itself.
    if ((value | 0) === value) return String(value);
    return Number.isFinite(value) ? doubleText(value) : 'null';
  }
  if (value === null) return 'null';
  return value ? 'true' : 'false';
}

/**
 * The text of doubles written lately, as a direct-mapped cache (a slot per hash of the double's
 * bits; a new double takes its slot over). A labelled run repeats many values — the lambdas of
 * each training step, widths, parallelism, rewards of records with the same counts — and spelling
 * a double costs several times a look-up here.
 */
const CACHE_BITS = 16;
const cachedDoubles = new Float64Array(1 << CACHE_BITS).fill(Number.NaN);
const cachedTexts = new Array<string>(1 << CACHE_BITS).fill('');
/** The bits of the double being looked up (one 64-bit slot, seen as two 32-bit halves). */
const bitsOf = new Float64Array(1);
const halvesOf = new Uint32Array(bitsOf.buffer);

/** `String(value)` for a finite double that is not a 32-bit integer, from the cache when it is there. */
function doubleText(value: number): string {
  bitsOf[0] = value;
  const slot = Math.imul((halvesOf[0] as number) ^ (halvesOf[1] as number), 0x9e3779b1) >>> (32 - CACHE_BITS);
  // NaN is never looked up, and -0 never reaches here (written as the integer 0): === is exact.
  if (cachedDoubles[slot] === value) return cachedTexts[slot] as string;
  const text = String(value);
  cachedDoubles[slot] = value;
  cachedTexts[slot] = text;
  return text;
}

/** A member's text before its value: `,"key":` (or `"key":` for an object's first member). */
export interface MemberPrefix {
  /** The text, ASCII or not (a key may hold any character). */
  readonly text: string;
  /** The same as UTF-8, copied into an output buffer without encoding it again. */
  readonly bytes: Uint8Array;
}

/** The prefixes after a comma, and those without one, per key: computed fields have a few fixed names. */
const memberPrefixes = [new Map<string, MemberPrefix>(), new Map<string, MemberPrefix>()] as const;

/** Keys remembered at most per map (any others, none today, are quoted each time). */
const MAX_PREFIXES = 256;

/**
 * `,"key":` — a comma, the key as `JSON.stringify` quotes it, then the colon — or, with
 * `first`, the same without the comma; as text and as UTF-8, remembered per key so that the key
 * of a field written for every record is quoted and encoded once per process.
 *
 * @example
 * ```ts
 * memberPrefix('total_reward').text; // ',"total_reward":'
 * memberPrefix('total_reward', true).text; // '"total_reward":'
 * ```
 */
export function memberPrefix(key: string, first = false): MemberPrefix {
  const prefixes = memberPrefixes[first ? 1 : 0];
  let prefix = prefixes.get(key);
  if (prefix === undefined) {
    const bytes = Buffer.from(`${first ? '' : ','}${JSON.stringify(key)}:`, 'utf8');
    // Decoded from its bytes: a flat string, not the pieces the template was joined from.
    prefix = { text: bytes.toString('utf8'), bytes: new Uint8Array(bytes) };
    if (prefixes.size < MAX_PREFIXES) prefixes.set(key, prefix);
  }
  return prefix;
}
