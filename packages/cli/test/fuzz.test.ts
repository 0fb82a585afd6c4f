/**
 * The reliability fuzz as properties: fast-check feeds `parl reward` and `parl critical-steps`
 * JSONL files of valid and mutated records and checks what a user relies on. `pnpm test` runs
 * about 10^4 records; `pnpm fuzz` sets PARL_FUZZ_RECORDS to 10^6 (see docs/reliability.md).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parl } from './support/memory-io.js';
import { CRITICAL_STEPS_FIELDS, fuzzLine, rewardFieldsOf, validRecord } from '@parl/test-support/fuzz-records';
import { LABEL_FIELDS } from '@parl/core';

const REWARD_FIELDS = rewardFieldsOf(LABEL_FIELDS);

/** Records per command over the whole property (runs × lines per file). */
const RECORDS = Number(process.env['PARL_FUZZ_RECORDS'] ?? 10_000);
const LINES_PER_FILE = Number(process.env['PARL_FUZZ_LINES'] ?? 100);
const RUNS = Math.max(1, Math.ceil(RECORDS / LINES_PER_FILE));
/** Generous on a busy machine: about 5 ms per record, at least 10 minutes. */
const TIMEOUT_MS = Math.max(600_000, RECORDS * 5);
const SEED = process.env['PARL_FUZZ_SEED'] === undefined ? undefined : Number(process.env['PARL_FUZZ_SEED']);

/** A JSONL file: a valid first record (so the file reads as JSONL), then fuzzed lines. */
const fuzzFile = fc.tuple(validRecord, fc.array(fuzzLine, { minLength: LINES_PER_FILE - 1, maxLength: LINES_PER_FILE - 1 }));

const COMMANDS = [
  ['reward', '--lambda1', 'linear:0.3:0:20000', '--budget', '40'],
  ['critical-steps', '--budget', '25', '--on-budget', 'truncate'],
] as const;

function outputLines(stdout: string): string[] {
  return stdout.split('\n').filter((l) => l !== '');
}

describe(`fuzzed records (${RUNS * LINES_PER_FILE} per command)`, () => {
  for (const command of COMMANDS) {
    it(`parl ${command[0]}: exit 0 under skip, exact accounting, only finite numbers, idempotent, record by record`, { timeout: TIMEOUT_MS }, async () => {
      await fc.assert(
        fc.asyncProperty(fuzzFile, fc.nat(), async ([first, lines], pick) => {
          const all = [JSON.stringify(first), ...lines];
          const input = `${all.join('\n')}\n`;
          const records = all.filter((l) => l.trim() !== '').length;
          const r = await parl([...command, '--on-error', 'skip'], input);
          // Never a crash: exit 0, and every complaint is one located line.
          expect(r.code, r.stderr).toBe(0);
          // Misspelt-field warnings (a mutation can turn `num_subagents` into `num_sub:agents`) are named, not counted.
          const complaints = r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith(`parl ${command[0]}: warning: line `));
          const skippedLines = complaints.filter((l) => l.startsWith(`parl ${command[0]}: skipped line `));
          const total = complaints.filter((l) => /^parl \S+: skipped \d+ of \d+ records$/.test(l));
          expect(skippedLines.length + total.length, r.stderr).toBe(complaints.length);
          // Exact accounting: written + skipped = read.
          const written = outputLines(r.stdout);
          expect(written.length + skippedLines.length).toBe(records);
          if (skippedLines.length > 0) expect(total).toEqual([`parl ${command[0]}: skipped ${skippedLines.length} of ${records} records`]);
          // Every computed field of accepted output is a finite number.
          for (const line of written) {
            const record = JSON.parse(line) as Record<string, unknown>;
            // Only the fields the command computes: other fields are the record's own, passed through.
            const withStages = Array.isArray(record['stages']) ? CRITICAL_STEPS_FIELDS : [];
            const computed = command[0] === 'reward' ? [...REWARD_FIELDS, ...withStages] : CRITICAL_STEPS_FIELDS;
            for (const field of computed) {
              if (field in record) expect(Number.isFinite(record[field]), `${field} in ${line.slice(0, 200)}`).toBe(true);
            }
          }
          // Idempotent (spec §5.1): labelling the output again changes nothing.
          const again = await parl([...command], r.stdout);
          expect(again.code, again.stderr).toBe(0);
          expect(again.stdout).toBe(r.stdout);
          // A record alone gives the line it gave in the file.
          if (written.length > 0) {
            const skippedAt = new Set(skippedLines.map((l) => Number(/skipped line (\d+):/.exec(l)?.[1])));
            const accepted = all.filter((l, i) => l.trim() !== '' && !skippedAt.has(i + 1));
            const k = pick % accepted.length;
            const alone = await parl([...command], `${accepted[k]}\n`);
            expect(alone.stdout).toBe(`${written[k]}\n`);
          }
        }),
        { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
      );
    });
  }

  it('parl reward under --on-error fail: exit 0 or 2 with one line naming a line, and no output on 2', { timeout: TIMEOUT_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fuzzLine, { minLength: 1, maxLength: 20 }), async (lines) => {
        const r = await parl(['reward'], `${lines.join('\n')}\n`);
        expect([0, 2]).toContain(r.code);
        if (r.code === 2) {
          expect(r.stdout).toBe('');
          const errors = r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('parl reward: warning: line '));
          expect(errors).toHaveLength(1);
          expect(errors[0]).toMatch(/^parl reward: (line \d+|record \d+): /);
        }
      }),
      { numRuns: Math.max(50, Math.floor(RUNS / 2)), ...(SEED === undefined ? {} : { seed: SEED }) },
    );
  });
});
