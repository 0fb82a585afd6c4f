/**
 * fast-check arbitraries of JSONL lines for the reliability properties: spec §5 records, most of
 * them valid, the rest mutated the ways real files go wrong (a field of the wrong type, a huge or
 * negative number, deep nesting, a truncated or garbled line, a stray CR).
 */
import fc from 'fast-check';

const count = fc.integer({ min: 0, max: 60 });
const steps = fc.oneof(fc.integer({ min: 0, max: 30 }), fc.double({ min: 0, max: 50, noNaN: true, noDefaultInfinity: true }));

const subAgent = fc.oneof(steps, fc.record({ steps, finished: fc.boolean() }, { requiredKeys: ['steps'] }));
const stage = fc.record({ main_steps: steps, sub_steps: fc.array(subAgent, { maxLength: 6 }) }, { requiredKeys: ['main_steps'] });

/** How r_perf is given: exactly one way (valid). */
const perf = fc.oneof(
  fc.record({ r_perf: fc.double({ min: -1, max: 2, noNaN: true, noDefaultInfinity: true }) }),
  fc.record({ success: fc.oneof(fc.boolean(), fc.constantFrom(0, 1)), quality: fc.double({ min: 0, max: 1, noNaN: true }) }, { requiredKeys: ['success'] }),
  fc.record({
    success: fc.boolean(),
    trajectory_features: fc.array(fc.double({ min: -5, max: 5, noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 4 }),
  }),
);

/** A valid spec §5 record. */
export const validRecord: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.record(
      {
        id: fc.oneof(fc.string({ maxLength: 8 }), fc.integer()),
        training_step: fc.integer({ min: 0, max: 20_000 }),
        num_subagents: count,
        stages: fc.array(stage, { minLength: 1, maxLength: 5 }),
        note: fc.jsonValue({ maxDepth: 2 }),
      },
      { requiredKeys: ['stages'] },
    ),
    perf,
  )
  .map(([base, p]) => ({ ...base, ...p }));

/** Values that are wrong somewhere in a record, as JSON text (deep nesting cannot be built as a value and stringified). */
const badValueText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('1e308', '-1e308', '-1', '-0', '5e-324', '9007199254740993', '"12"', '""', 'true', 'null', '[]', '{}', '[1e308,1e308]', '{"__proto__":{"x":1}}'),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.integer({ min: 1, max: 6000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
);

const FIELDS = ['id', 'training_step', 'num_subagents', 'assigned_subtasks', 'completed_subtasks', 'success', 'quality', 'r_perf', 'trajectory_features', 'stages', 'total_reward', 'critical_steps'];

const PLACEHOLDER = '"@@bad-value@@"';

/** A record with one field set to a wrong value, or removed. */
const mutatedRecord = fc.tuple(validRecord, fc.constantFrom(...FIELDS, 'stages[0].main_steps', 'stages[0].sub_steps'), badValueText, fc.boolean()).map(
  ([record, field, valueText, remove]) => {
    const out: Record<string, unknown> = structuredClone(record);
    const value = JSON.parse(PLACEHOLDER) as unknown;
    if (field.startsWith('stages[0].')) {
      const stage0 = (out['stages'] as Record<string, unknown>[])[0] as Record<string, unknown>;
      const key = field.slice('stages[0].'.length);
      if (remove) delete stage0[key];
      else stage0[key] = value;
    } else if (remove) delete out[field];
    else out[field] = value;
    return JSON.stringify(out).replace(PLACEHOLDER, valueText);
  },
);

/** A line garbled as text: truncated, a character inserted, a stray CR, garbage. */
const garbledLine = fc.tuple(validRecord, fc.nat(), fc.constantFrom('', '\r', '"', '{', '}', ',', '\u0000', 'x', '\\', ':', ' ')).chain(([record, at, ch]) => {
  const text = JSON.stringify(record);
  const i = at % (text.length + 1);
  return fc.constantFrom(text.slice(0, i), text.slice(0, i) + ch + text.slice(i), `${text} trailing`, '{"r_perf":', 'null', '"text"', '42');
});

/** One JSONL line: valid about half the time. */
export const fuzzLine: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: validRecord.map((r) => JSON.stringify(r)) },
  { weight: 4, arbitrary: mutatedRecord },
  { weight: 1, arbitrary: garbledLine },
);

/** The spec §2 fields `parl critical-steps` computes (and `parl reward` for a record with stages). */
export const CRITICAL_STEPS_FIELDS: readonly string[] = ['critical_steps', 'total_steps', 'parallelism', 'num_stages', 'max_width', 'mean_width'];

/**
 * The spec §3 fields `parl reward` computes, with r_perf: core's label fields (`labelFields`, pass
 * `LABEL_FIELDS` from `@parl/core`; test support cannot depend on core, which uses it) without the
 * §2 ones and the budget's `within_budget` (a boolean) and `budget_cut_stage` (null when nothing is cut).
 */
export function rewardFieldsOf(labelFields: readonly string[]): readonly string[] {
  return [...labelFields.filter((f) => !CRITICAL_STEPS_FIELDS.includes(f) && f !== 'within_budget' && f !== 'budget_cut_stage'), 'r_perf'];
}
