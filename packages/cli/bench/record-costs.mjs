// Where the time of one labelled JSONL record goes, measured in this process on `lines` (the
// bench's own records): what the floor does (JSON.parse, JSON.stringify of the record) against
// what `parl reward` adds (core's field-name hints and rewardLabelFields — validation and the
// reward — and one JSON.stringify of the 15 computed fields, mostly doubles), and the text of the
// 15 values alone, what any writer of them pays at least. Best of 5 passes.
import { recordFieldHints, resolveRewardConfig, rewardLabelFields } from '@parl/core';

/** Microseconds per record of each step over `lines` (JSON texts). */
export function recordCosts(lines) {
  const config = resolveRewardConfig({});
  const records = lines.map((line) => JSON.parse(line));
  const fields = records.map((record) => rewardLabelFields(record, config, 'line 1'));
  const steps = {
    'JSON.parse (floor and parl)': () => lines.reduce((n, line) => n + (JSON.parse(line) === null ? 0 : 1), 0),
    'JSON.stringify of the record (floor)': () => records.reduce((n, record) => n + JSON.stringify(record).length, 0),
    'recordFieldHints (parl, core)': () => records.reduce((n, record) => n + recordFieldHints(record).length, 0),
    'rewardLabelFields (parl, core)': () => records.reduce((n, record) => n + rewardLabelFields(record, config, 'line 1').total_reward, 0),
    'JSON.stringify of the 15 fields (parl)': () => fields.reduce((n, f) => n + JSON.stringify(f).length, 0),
    // The least any writer of the computed fields pays: the text of each value, with no keys,
    // no object walked by JSON.stringify and no bytes written.
    'String of the 15 values alone (a lower bound)': () =>
      fields.reduce((n, f) => {
        for (const key in f) n += String(f[key]).length;
        return n;
      }, 0),
  };
  const out = {};
  for (const [name, step] of Object.entries(steps)) {
    let best = Infinity;
    for (let pass = 0; pass < 5; pass++) {
      const started = process.hrtime.bigint();
      step();
      best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e3);
    }
    out[name] = best / lines.length;
  }
  return out;
}
