// Where the time of one labelled JSONL record goes, measured in this process on `lines` (the
// bench's own records): what the floor does (JSON.parse, JSON.stringify of the record) against
// what `parl reward` adds (core's field-name hints and rewardLabelFields — validation and the
// reward — and one JSON.stringify of the 15 computed fields, mostly doubles). Best of 5 passes.
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
