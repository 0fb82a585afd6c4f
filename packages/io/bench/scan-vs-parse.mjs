// Issue 39 item 3: can `parl reward` read only the fields labelling needs, instead of `JSON.parse`
// of the whole record, and so pass the JSON floor? This measures a scan that does that — one pass
// over a record's text checking it is a JSON object, parsing the values of the spec §5 and
// computed fields (core's EPISODE_RECORD_FIELDS and LABEL_FIELDS) and checking and passing over
// the rest — against `JSON.parse` of the same text, in the same run, per record. The scan is a
// prototype kept here (not in src/): measured slower than the parse it would replace, it was not
// adopted (see docs/benchmarks.md, issue 39).
//
// Also measured: `JSON.parse` of the `stages` text alone (the bulk of a record, which labelling
// needs whole), pre-cut and cut per record: what any scan that leaves nested values to
// `JSON.parse` pays at least.
//
// Usage (after `pnpm --filter @parl/io build`): node bench/scan-vs-parse.mjs [records (default 200000)]
// Records: packages/cli/bench/label.mjs's (id, prompt id, model, counts, r_perf, 1–6 stages).

// ---- the scan (prototype) ----
import { isDeepStrictEqual } from 'node:util';
import { EPISODE_RECORD_FIELDS, LABEL_FIELDS } from '@parl/core';
const READ_KEYS = /* @__PURE__ */ new Set([...EPISODE_RECORD_FIELDS, ...LABEL_FIELDS]);
const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;
const COLON = 58;
const MINUS = 45;
const ZERO = 48;
const NINE = 57;
const ESCAPED = { value: false };
function isSpace(c) {
  return c === 32 || c === 10 || c === 13 || c === 9;
}
function skipSpace(text, at) {
  while (isSpace(text.charCodeAt(at))) at++;
  return at;
}
function isHex(c) {
  return c >= ZERO && c <= NINE || c >= 65 && c <= 70 || c >= 97 && c <= 102;
}
function stringEnd(text, at, escaped) {
  const n = text.length;
  for (let i = at; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c < 32) return -1;
    if (c !== BACKSLASH) continue;
    escaped.value = true;
    const e = text.charCodeAt(i + 1);
    if (e === 117) {
      if (!(isHex(text.charCodeAt(i + 2)) && isHex(text.charCodeAt(i + 3)) && isHex(text.charCodeAt(i + 4)) && isHex(text.charCodeAt(i + 5)))) return -1;
      i += 5;
    } else if (e === QUOTE || e === BACKSLASH || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) {
      i += 1;
    } else {
      return -1;
    }
  }
  return -1;
}
function digitsEnd(text, at) {
  let i = at;
  for (let c = text.charCodeAt(i); c >= ZERO && c <= NINE; c = text.charCodeAt(++i)) ;
  return i > at ? i : -1;
}
function numberEnd(text, at) {
  let i = at;
  if (text.charCodeAt(i) === MINUS) i++;
  const first = text.charCodeAt(i);
  if (first === ZERO) i++;
  else if (first > ZERO && first <= NINE) i = digitsEnd(text, i);
  else return -1;
  if (text.charCodeAt(i) === 46) {
    i = digitsEnd(text, i + 1);
    if (i < 0) return -1;
  }
  const e = text.charCodeAt(i);
  if (e === 101 || e === 69) {
    i++;
    const sign = text.charCodeAt(i);
    if (sign === 43 || sign === MINUS) i++;
    i = digitsEnd(text, i);
  }
  return i;
}
const NOT_READ = /* @__PURE__ */ Symbol("not read");
const MAX_DEPTH = 64;
const NESTED_KEYS = ["main_steps", "sub_steps", "steps", "finished", "wait_steps", "stages"];
function byLength(keys) {
  const out = /* @__PURE__ */ new Map();
  for (const key of keys) {
    const list = out.get(key.length) ?? [];
    list.push(key);
    out.set(key.length, list);
  }
  return out;
}
const NESTED_BY_LENGTH = byLength(NESTED_KEYS);
const READ_BY_LENGTH = byLength(READ_KEYS);
class Scan {
  constructor(src) {
    this.src = src;
  }
  src;
  /** The position in {@link Scan.src}. */
  pos = 0;
  /** The one of `keys` written at `this.src[from…to)`, or undefined. */
  knownKey(keys, from, to) {
    const list = keys.get(to - from);
    if (list === void 0) return void 0;
    for (const key of list) if (this.src.startsWith(key, from)) return key;
    return void 0;
  }
  /** The JSON string at `this.pos` (its opening quote), as `JSON.parse` reads it; `this.pos` moves past it. */
  parseString() {
    ESCAPED.value = false;
    const end = stringEnd(this.src, this.pos + 1, ESCAPED);
    if (end < 0) return NOT_READ;
    const from = this.pos;
    this.pos = end;
    return ESCAPED.value ? JSON.parse(this.src.slice(from, end)) : this.src.slice(from + 1, end - 1);
  }
  /** The JSON number at `this.pos`, as `JSON.parse` reads it; `this.pos` moves past it. */
  parseNumber() {
    const from = this.pos;
    const end = numberEnd(this.src, from);
    if (end < 0) return NOT_READ;
    this.pos = end;
    const negative = this.src.charCodeAt(from) === MINUS;
    const digits = negative ? from + 1 : from;
    if (end - digits <= 15) {
      let value = 0;
      let i = digits;
      for (; i < end; i++) {
        const c = this.src.charCodeAt(i);
        if (c < ZERO || c > NINE) break;
        value = value * 10 + (c - ZERO);
      }
      if (i === end) return negative ? -value : value;
    }
    return Number(this.src.slice(from, end));
  }
  /** The JSON value at `this.pos` (no whitespace before it), as `JSON.parse` reads it; `this.pos` moves past it. */
  parseValue(depth) {
    const c = this.src.charCodeAt(this.pos);
    if (c === QUOTE) return this.parseString();
    if (c === OPEN_BRACKET) return depth >= MAX_DEPTH ? NOT_READ : this.parseArray(depth + 1);
    if (c === OPEN_BRACE) return depth >= MAX_DEPTH ? NOT_READ : this.parseObject(depth + 1);
    if (c === 116) return this.literal("true", true);
    if (c === 102) return this.literal("false", false);
    if (c === 110) return this.literal("null", null);
    return this.parseNumber();
  }
  literal(word, value) {
    if (!this.src.startsWith(word, this.pos)) return NOT_READ;
    this.pos += word.length;
    return value;
  }
  /** The JSON array at `this.pos` (its `[`). */
  parseArray(depth) {
    const out = [];
    this.pos = skipSpace(this.src, this.pos + 1);
    if (this.src.charCodeAt(this.pos) === CLOSE_BRACKET) {
      this.pos++;
      return out;
    }
    for (; ; ) {
      const value = this.parseValue(depth);
      if (value === NOT_READ) return NOT_READ;
      out.push(value);
      this.pos = skipSpace(this.src, this.pos);
      const c = this.src.charCodeAt(this.pos);
      if (c === CLOSE_BRACKET) {
        this.pos++;
        return out;
      }
      if (c !== COMMA) return NOT_READ;
      this.pos = skipSpace(this.src, this.pos + 1);
    }
  }
  /**
   * The key at `this.pos` (its opening quote) without escapes, as a known key from `keys` when it is
   * one, else as a new string; `this.pos` moves past its colon and the whitespace after. NOT_READ for
   * a key with an escape or `__proto__` (which `JSON.parse` makes an own field, and an assignment
   * would not).
   */
  parseKey(keys) {
    if (this.src.charCodeAt(this.pos) !== QUOTE) return NOT_READ;
    ESCAPED.value = false;
    const end = stringEnd(this.src, this.pos + 1, ESCAPED);
    if (end < 0 || ESCAPED.value) return NOT_READ;
    const key = this.knownKey(keys, this.pos + 1, end - 1) ?? this.src.slice(this.pos + 1, end - 1);
    if (key === "__proto__") return NOT_READ;
    this.pos = skipSpace(this.src, end);
    if (this.src.charCodeAt(this.pos) !== COLON) return NOT_READ;
    this.pos = skipSpace(this.src, this.pos + 1);
    return key;
  }
  /** The JSON object at `this.pos` (its `{`), below the record's own level. */
  parseObject(depth) {
    this.pos = skipSpace(this.src, this.pos + 1);
    if (this.src.charCodeAt(this.pos) === CLOSE_BRACE) {
      this.pos++;
      return {};
    }
    let key = this.parseKey(NESTED_BY_LENGTH);
    if (key === NOT_READ) return NOT_READ;
    let value = this.parseValue(depth);
    if (value === NOT_READ) return NOT_READ;
    if (key === "main_steps" && this.memberFollows()) {
      const second = this.parseKey(NESTED_BY_LENGTH);
      if (second === NOT_READ) return NOT_READ;
      const secondValue = this.parseValue(depth);
      if (secondValue === NOT_READ) return NOT_READ;
      if (second === "sub_steps" && this.objectEnds()) return { main_steps: value, sub_steps: secondValue };
      if (this.pos < 0) return NOT_READ;
      const out2 = { main_steps: value };
      return this.moreMembers(out2, second, secondValue, depth);
    }
    if (this.pos < 0) return NOT_READ;
    const out = {};
    return this.moreMembers(out, key, value, depth);
  }
  /** After a member: true and `pos` at the next key when a comma follows; false (`pos` unmoved, or -1 when neither a comma nor a `}` follows). */
  memberFollows() {
    const at = skipSpace(this.src, this.pos);
    const c = this.src.charCodeAt(at);
    if (c === COMMA) {
      this.pos = skipSpace(this.src, at + 1);
      return true;
    }
    if (c !== CLOSE_BRACE) this.pos = -1;
    return false;
  }
  /** After a member: true and `pos` past the `}` when the object ends there (else `pos` unmoved). */
  objectEnds() {
    const at = skipSpace(this.src, this.pos);
    if (this.src.charCodeAt(at) !== CLOSE_BRACE) return false;
    this.pos = at + 1;
    return true;
  }
  /** The rest of an object whose member `key`: `value` was read last (`pos` after it). */
  moreMembers(out, key, value, depth) {
    for (; ; ) {
      out[key] = value;
      if (this.objectEnds()) return out;
      if (!this.memberFollows()) return NOT_READ;
      const next = this.parseKey(NESTED_BY_LENGTH);
      if (next === NOT_READ) return NOT_READ;
      key = next;
      value = this.parseValue(depth);
      if (value === NOT_READ) return NOT_READ;
    }
  }
  /** The record's members (`pos` at its `{`). */
  members() {
    const record = {};
    const extraKeys = [];
    let read = 0;
    this.pos = skipSpace(this.src, 1);
    if (this.src.charCodeAt(this.pos) === CLOSE_BRACE) return skipSpace(this.src, this.pos + 1) === this.src.length ? { record, extraKeys } : void 0;
    for (; ; ) {
      const key = this.parseKey(READ_BY_LENGTH);
      if (key === NOT_READ) return void 0;
      const value = this.parseValue(1);
      if (value === NOT_READ) return void 0;
      if (READ_KEYS.has(key)) {
        if (Object.prototype.hasOwnProperty.call(record, key)) return void 0;
        record[key] = value;
        read++;
      } else {
        extraKeys.push(key);
      }
      this.pos = skipSpace(this.src, this.pos);
      const next = this.src.charCodeAt(this.pos);
      if (next === COMMA) {
        this.pos = skipSpace(this.src, this.pos + 1);
        continue;
      }
      if (next !== CLOSE_BRACE || skipSpace(this.src, this.pos + 1) !== this.src.length) return void 0;
      return read === 0 ? void 0 : { record, extraKeys };
    }
  }
}
function scanRecord(text) {
  if (text.charCodeAt(0) !== OPEN_BRACE) return void 0;
  return new Scan(text).members();
}

// ---- the bench ----

function record(i) {
  const stages = [];
  for (let t = 0; t < 1 + (i % 6); t++) stages.push({ main_steps: 1, sub_steps: Array.from({ length: (i + t) % 7 }, (_, k) => 1 + ((i * 7 + k * 3 + t) % 23)) });
  const launched = stages.reduce((n, s) => n + s.sub_steps.length, 0);
  return {
    id: `rollout-${i}`,
    prompt_id: `gsm8k-${i % 7473}`,
    model: 'kimi-k2-instruct',
    training_step: i % 20000,
    num_subagents: launched,
    assigned_subtasks: launched,
    completed_subtasks: launched - (i % 3 === 0 && launched > 0 ? 1 : 0),
    r_perf: Math.round((((i * 2654435761) % 1000) / 1000) * 1e6) / 1e6,
    stages,
  };
}

const n = Number(process.argv[2] ?? 200_000);
// One text cut into lines, as parl reward's chunk labeller cuts its input.
const lines = Array.from({ length: n }, (_, i) => JSON.stringify(record(i))).join('\n').split('\n');
const stagesOf = (line) => line.slice(line.indexOf('"stages":') + 9, -1);
const stagesTexts = lines.map((l) => JSON.parse(JSON.stringify(stagesOf(l))));
// The scan reads what labelling reads, the same as JSON.parse does.
for (const line of lines.slice(0, 1000)) {
  const whole = JSON.parse(line);
  const scanned = scanRecord(line);
  for (const key of Object.keys(scanned.record)) if (!isDeepStrictEqual(scanned.record[key], whole[key])) throw new Error(`the scan read ${key} of ${line} otherwise`);
}
let sink = 0;
/** Best of 5 passes over every record, µs a record. */
function time(f) {
  f();
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const start = performance.now();
    f();
    best = Math.min(best, performance.now() - start);
  }
  return (best * 1000) / lines.length;
}
const cases = [
  ['JSON.parse of the record (baseline)', () => { for (const l of lines) sink += JSON.parse(l) === null ? 0 : 1; }],
  ['the scan (fields labelling reads)', () => { for (const l of lines) sink += scanRecord(l) === undefined ? 0 : 1; }],
  ['JSON.parse of its stages, cut beforehand', () => { for (const s of stagesTexts) sink += JSON.parse(s).length; }],
  ['JSON.parse of its stages, cut per record', () => { for (const l of lines) sink += JSON.parse(stagesOf(l)).length; }],
];
const results = cases.map(([name, f]) => [name, time(f)]);
const base = results[0][1];
console.log(`${n} records, Node ${process.version}`);
for (const [name, us] of results) console.log(`${name.padEnd(44)} ${us.toFixed(3)} µs/record  ${(us / base).toFixed(2)}× the baseline`);
if (sink === 0) console.log('');
