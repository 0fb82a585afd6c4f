import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { computeReward, criticalSteps, type StageRecord } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { BIN, requireBuiltBin } from './support/bin.js';
import { parl } from './support/memory-io.js';
import { parseJsonl } from './support/records.js';
import { filesIn, useTempDirs } from '@parl/test-support/temp-dir';

const tempDir = useTempDirs('cli');
const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const OTLP = fixture('otlp-two-traces.jsonl');
const OPENAI = fixture('openai-agents-parallel.jsonl');
const WORKED = fixture('worked-example.jsonl');
const SERIAL_TRACE = 'f1fa843a07a796bbd94c145eeb72c66b';
const PARALLEL_TRACE = '0eac1514addf9cfd2bf1d111583ba3bc';

type Sub = { steps: number; finished: boolean; wait_steps?: number };
type SubShape = [number, boolean] | [number, boolean, number];
/** Sub-agent steps of each stage (with the wait, spec §2 `wait_steps`, where one waited), largest first (order within a group carries no meaning). */
function shape(record: Record<string, unknown> | undefined): [number, SubShape[]][] {
  const stages = (record?.['stages'] ?? []) as { main_steps: number; sub_steps: Sub[] }[];
  return stages.map((s) => [
    s.main_steps,
    s.sub_steps.map((x): SubShape => (x.wait_steps === undefined ? [x.steps, x.finished] : [x.steps, x.finished, x.wait_steps])).sort((a, b) => b[0] - a[0]),
  ]);
}

describe('parl trace', () => {
  it('turns OTLP JSON from the OpenTelemetry SDK into spec §5 records on stdout, with a one-line summary on stderr', async () => {
    const r = await parl(['trace', '--in', OTLP]);
    expect(r.code).toBe(0);
    const records = parseJsonl(r.stdout);
    expect(records.map((x) => x['id'])).toEqual([SERIAL_TRACE, PARALLEL_TRACE]);
    // trace 1: researcher (2 LLM calls) then writer (1), both launched in turn 1: as run the writer waited 2 steps
    expect(shape(records[0])).toEqual([
      [1, [[2, true], [1, true, 2]]],
      [1, []],
    ]);
    // trace 2: searcher (3 LLM calls) and checker (1, ended in error) together
    expect(shape(records[1])).toEqual([
      [1, [[3, true], [1, false]]],
      [1, []],
    ]);
    expect(r.stderr).toBe('parl trace: 2 traces read, 2 records written to stdout; 1 with serial collapse, running in parallel would save up to 1 critical step\n');
  });

  it('reads an OpenAI Agents SDK export from stdin, and reports formats in the --json summary', async () => {
    const r = await parl(['trace', '--json'], readFileSync(OPENAI, 'utf8'));
    expect(r.code).toBe(0);
    const [record, ...rest] = parseJsonl(r.stdout);
    expect(rest).toEqual([]);
    expect(String(record?.['id'])).toMatch(/^trace_/);
    expect(shape(record)).toEqual([
      [1, [[2, true], [1, true]]],
      [1, []],
    ]);
    expect(JSON.parse(r.stderr)).toEqual({
      command: 'trace',
      traces_read: 1,
      records_written: 1,
      skipped: 0,
      warnings: 0,
      serial_collapse_traces: 0,
      critical_steps_saved: 0,
      trace_formats: { 'openai-agents': 1 },
      records_without_outcome: 0,
      output_format: 'jsonl',
      output: 'stdout',
      findings: null,
      report: null,
    });
  });

  it('writes one finding per trace to --findings and the records to --out, atomically, JSON summary on stdout', async () => {
    const dir = tempDir();
    const out = join(dir, 'episodes.jsonl');
    const findings = join(dir, 'findings.jsonl');
    const r = await parl(['trace', '--in', OTLP, '--out', out, '--findings', findings, '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ traces_read: 2, records_written: 2, serial_collapse_traces: 1, critical_steps_saved: 1, output: out, findings });
    expect(filesIn(dir)).toEqual(['episodes.jsonl', 'findings.jsonl']);
    expect(parseJsonl(readFileSync(out, 'utf8'))).toHaveLength(2);
    const [serial, parallel] = parseJsonl(readFileSync(findings, 'utf8'));
    expect(serial).toMatchObject({ trace_id: SERIAL_TRACE, serial_collapse: true, critical_steps_as_run: 5, critical_steps_if_parallel: 4, critical_steps_saved: 1 });
    const waves = (serial?.['patterns'] as { kind: string; turns: number[]; groups: { name: string }[][] }[]).map((p) => [p.kind, p.turns, p.groups.map((w) => w.map((s) => s.name))]);
    expect(waves).toEqual([['waves', [1], [['researcher'], ['writer']]]]);
    expect(parallel).toMatchObject({ trace_id: PARALLEL_TRACE, serial_collapse: false, patterns: [], critical_steps_saved: 0 });
  });

  it('passes --grouping, --clock and --steps-from to the mapping', async () => {
    const overlap = parseJsonl((await parl(['trace', '--in', WORKED])).stdout)[0];
    expect(shape(overlap)).toEqual([
      [1, [[2, true], [1, true], [1, false, 2]]],
      [1, []],
    ]);
    const wall = parseJsonl((await parl(['trace', '--in', WORKED, '--clock', 'wall', '--grouping', 'children'])).stdout)[0];
    expect(shape(wall)).toEqual([
      [1, [[2.5, true], [2, false], [1, true]]],
      [1, []],
    ]);
    // the researcher made one tool call (lookup); the others none
    const tools = parseJsonl((await parl(['trace', '--in', WORKED, '--steps-from', 'tools', '--grouping', 'children'])).stdout)[0];
    expect(shape(tools)).toEqual([
      [1, [[1, true], [0, true], [0, false]]],
      [1, []],
    ]);
  });

  it('writes CSV with --format csv', async () => {
    const r = await parl(['trace', '--in', WORKED, '--format', 'csv']);
    expect(r.code).toBe(0);
    const [header, row, end] = r.stdout.split('\n');
    expect(header).toBe('id,stages');
    expect(row?.startsWith('trace_demo,"[{""main_steps"":1,')).toBe(true);
    expect(end).toBe('');
  });

  it('stops at a malformed trace with exit code 2 and one line naming the span, leaving no output file', async () => {
    const dir = tempDir();
    // drop the researcher's agent span: its LLM calls now point to a parent that is not there
    const broken = readFileSync(WORKED, 'utf8')
      .split('\n')
      .filter((l) => !l.includes('"id":"span_researcher"'))
      .join('\n');
    writeFileSync(join(dir, 'broken.jsonl'), broken);
    const r = await parl(['trace', '--in', join(dir, 'broken.jsonl'), '--out', join(dir, 'out.jsonl'), '--findings', join(dir, 'findings.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^parl trace: line \d+: span span_r[12]\.parent_id must be the id of a span in trace trace_demo \(the parent is missing: truncated or partial export\?\), got "span_researcher"\n$/);
    expect(filesIn(dir)).toEqual(['broken.jsonl']);
  });

  it('stops at a truncated file with exit code 2, leaving an existing output file untouched', async () => {
    const dir = tempDir();
    const text = readFileSync(OTLP, 'utf8');
    writeFileSync(join(dir, 'cut.jsonl'), text.slice(0, text.indexOf('\n') + 200));
    writeFileSync(join(dir, 'out.jsonl'), 'previous\n');
    const r = await parl(['trace', '--in', join(dir, 'cut.jsonl'), '--out', join(dir, 'out.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^parl trace: line 2 must be one complete JSON value per line .*\n$/);
    expect(readFileSync(join(dir, 'out.jsonl'), 'utf8')).toBe('previous\n');
    expect(filesIn(dir)).toEqual(['cut.jsonl', 'out.jsonl']);
  });

  it('with --on-malformed skip, reports each skipped trace on stderr, counts it and keeps the rest', async () => {
    const broken = readFileSync(WORKED, 'utf8')
      .split('\n')
      .filter((l) => !l.includes('"id":"span_researcher"'))
      .join('\n');
    const r = await parl(['trace', '--on-malformed', 'skip'], `${broken}\n${readFileSync(OTLP, 'utf8')}`);
    expect(r.code).toBe(0);
    expect(parseJsonl(r.stdout).map((x) => x['id'])).toEqual([SERIAL_TRACE, PARALLEL_TRACE]);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^parl trace: skipped trace trace_demo: line \d+: span span_r[12]\.parent_id must be the id of a span in trace trace_demo/);
    expect(lines[1]).toBe('parl trace: 2 traces read, 2 records written to stdout; 1 with serial collapse, running in parallel would save up to 1 critical step; 1 skipped');
  });

  it('prints warnings about a trace on stderr and counts them', async () => {
    // an unknown gen_ai.operation.name is not an error: the span counts as neither agent, LLM nor tool call
    const odd = readFileSync(OTLP, 'utf8').replace('"stringValue":"execute_tool"', '"stringValue":"plan_dance"');
    const r = await parl(['trace', '--json'], odd);
    expect(r.code).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^parl trace: warning: trace [0-9a-f]{32}: .*unknown gen_ai\.operation\.name "plan_dance"/);
    expect(JSON.parse(lines[1] ?? '')).toMatchObject({ warnings: 1, traces_read: 2 });
  });

  it('exits 2 with one line for a missing file, an unwritable --findings, or a bad flag', async () => {
    const dir = tempDir();
    const missing = await parl(['trace', '--in', join(dir, 'none.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`parl trace: cannot read --in ${join(dir, 'none.jsonl')}: no such file or directory\n`);
    const noFolder = await parl(['trace', '--in', OTLP, '--out', join(dir, 'out.jsonl'), '--findings', join(dir, 'no', 'f.jsonl')]);
    expect(noFolder.code).toBe(2);
    expect(noFolder.stderr).toBe(`parl trace: cannot write --findings ${join(dir, 'no', 'f.jsonl')}: no such file or directory\n`);
    expect(filesIn(dir)).toEqual([]);
    const same = await parl(['trace', '--in', OTLP, '--out', join(dir, 'x'), '--findings', join(dir, 'x')]);
    expect(same.code).toBe(2);
    expect(same.stderr).toMatch(/^parl trace: --out and --findings name the same file/);
    const bad = await parl(['trace', '--trace-format', 'xml'], '');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: option '--trace-format <format>' argument 'xml' is invalid\. Allowed choices are auto, otlp, openai-agents, langsmith, mastra, parl\./);
  });

  it('rejects values of another format under a forced --trace-format', async () => {
    const r = await parl(['trace', '--in', OPENAI, '--trace-format', 'otlp']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.stderr).toMatch(/^parl trace: line 1: \(value\) must be an OTLP export request/);
  });

  it('feeds parl critical-steps directly, and parl reward once --outcomes adds success and quality', async () => {
    const dir = tempDir();
    const outcomes = join(dir, 'evals.jsonl');
    writeFileSync(outcomes, `${JSON.stringify({ id: SERIAL_TRACE, success: true, quality: 0.8 })}\n${JSON.stringify({ id: PARALLEL_TRACE, success: false })}\n`);
    const traced = await parl(['trace', '--in', OTLP, '--outcomes', outcomes]);
    expect(traced.code).toBe(0);
    const records = parseJsonl(traced.stdout);

    const cs = await parl(['critical-steps'], traced.stdout);
    expect(cs.code).toBe(0);
    expect(parseJsonl(cs.stdout).map((x) => x['critical_steps'])).toEqual(records.map((x) => criticalSteps(x['stages'] as StageRecord[]).critical_steps));

    const rewarded = await parl(['reward', '--step', '2000'], traced.stdout);
    expect(rewarded.code).toBe(0);
    const labelled = parseJsonl(rewarded.stdout);
    expect(labelled.map((x) => [x['id'], x['success'], x['r_perf']])).toEqual([
      [SERIAL_TRACE, true, 0.8],
      [PARALLEL_TRACE, false, 0],
    ]);
    for (const [i, rec] of labelled.entries()) expect(rec).toMatchObject(computeReward(records[i] as Record<string, unknown>, { step: 2000 }));
    // sub-agents carry `finished`, so r_finish counts them: 2 of 2, then 1 of 2
    expect(labelled.map((x) => x['r_finish'])).toEqual([1, 0.5]);
  });

  it('warns about records with no outcome, and rejects a repeated outcome id naming the line', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'one.jsonl'), `${JSON.stringify({ id: SERIAL_TRACE, r_perf: 1 })}\n`);
    const partial = await parl(['trace', '--in', OTLP, '--outcomes', join(dir, 'one.jsonl')]);
    expect(partial.code).toBe(0);
    expect(partial.stderr).toContain(`parl trace: warning: 1 of 2 records have no outcome in --outcomes ${join(dir, 'one.jsonl')} (parl reward needs success, quality or r_perf)\n`);
    writeFileSync(join(dir, 'twice.jsonl'), `${JSON.stringify({ id: 'a', r_perf: 1 })}\n${JSON.stringify({ id: 'a', r_perf: 0 })}\n`);
    writeFileSync(join(dir, 'proto.jsonl'), `{"id":"${SERIAL_TRACE}","__proto__":{"r_perf":1},"success":true}\n`);
    const proto = parseJsonl((await parl(['trace', '--in', OTLP, '--outcomes', join(dir, 'proto.jsonl')])).stdout)[0];
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto ?? {})).toEqual(['id', 'stages', '__proto__', 'success']);
    writeFileSync(join(dir, 'stages.jsonl'), `${JSON.stringify({ id: SERIAL_TRACE, stages: [] })}\n`);
    const stages = await parl(['trace', '--in', OTLP, '--outcomes', join(dir, 'stages.jsonl')]);
    expect(stages.code).toBe(2);
    expect(stages.stderr).toBe(`parl trace: --outcomes ${join(dir, 'stages.jsonl')} line 1: stages must be absent: the trace provides it, got []\n`);
    const twice = await parl(['trace', '--in', OTLP, '--outcomes', join(dir, 'twice.jsonl')]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toBe(`parl trace: --outcomes ${join(dir, 'twice.jsonl')} line 2: id must be an id given once (it is repeated), got "a"\n`);
  });

  it('runs as a shell pipeline of the bin: parl trace | parl reward', () => {
    requireBuiltBin();
    const dir = tempDir();
    writeFileSync(join(dir, 'evals.jsonl'), `${JSON.stringify({ id: 'trace_demo', success: true })}\n`);
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" trace --in "${WORKED}" --outcomes evals.jsonl | "${process.execPath}" "${BIN}" reward --out rewarded.jsonl`], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('parl trace: 1 trace read, 1 record written to stdout; 1 with serial collapse, running in parallel would save up to 1 critical step\n');
    const [rec] = parseJsonl(readFileSync(join(dir, 'rewarded.jsonl'), 'utf8'));
    // worked example as run: (1 + max(1, 2)) + (0 + 1) + 1 = 5; 2 of 3 sub-agents finished
    expect(rec).toMatchObject({ id: 'trace_demo', critical_steps: 5, r_perf: 1, r_finish: 2 / 3 });
    expect(existsSync(join(dir, 'rewarded.jsonl'))).toBe(true);
  });
});

describe('parl trace --strict', () => {
  it('turns a warning into exit code 2 naming the trace; without it the record is written with the warning on stderr', async () => {
    const dir = tempDir();
    const file = join(dir, 'silent.jsonl');
    const span = (id: string, parent: string | undefined, op: string, agent: string | undefined, start: number, end: number) => ({
      traceId: 't-silent',
      spanId: id,
      ...(parent === undefined ? {} : { parentSpanId: parent }),
      name: id,
      startTimeUnixNano: `${1_735_732_800_000 + start}000000`,
      endTimeUnixNano: `${1_735_732_800_000 + end}000000`,
      attributes: [
        { key: 'gen_ai.operation.name', value: { stringValue: op } },
        ...(agent === undefined ? [] : [{ key: 'gen_ai.agent.name', value: { stringValue: agent } }]),
      ],
    });
    const spans = [span('llm', 'root', 'chat', undefined, 0, 10), span('sub', 'root', 'invoke_agent', 'silent', 11, 20), span('root', undefined, 'invoke_agent', 'boss', 0, 30)];
    writeFileSync(file, `${JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] })}\n`);
    const lax = await parl(['trace', '--in', file]);
    expect(lax.code).toBe(0);
    expect(lax.stderr).toContain('parl trace: warning: trace t-silent: sub-agent span sub ("silent") has no recognised model call');
    const strict = await parl(['trace', '--in', file, '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.stdout).toBe('');
    expect(strict.stderr.trim().split('\n')).toHaveLength(1);
    expect(strict.stderr).toContain('trace t-silent must be a trace without warnings under strict');
  });
});
