/**
 * `parl swarm run` and `parl swarm eval`: the Agent Swarm on an OpenAI-compatible endpoint
 * (spec §10). `@parl/swarm` itself, with the AI SDK, is an optional peer loaded only here, when a
 * swarm command runs; the flags are wired in `../swarm-program.ts`.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { claimOutputs, onSignalBeforeExit, writeFileAtomic, type OutputClaim } from '@parl/io';
import type { RolloutSummary, SwarmEpisodesFailedError, SwarmEvaluation, SwarmEvalOptions, SwarmRunOptions } from '@parl/swarm';
import { CliError } from '../../errors.js';
import { logLine, type CliIo } from '../../terminal/cli-io.js';
import { formatNumber } from '../report/format-number.js';
import { importOptional, installHint, isMissing } from '../../optional-packages.js';


/** `@parl/swarm` (swarm-program.ts has checked that it is installed before wiring these commands). */
function loadSwarm(): Promise<typeof import('@parl/swarm')> {
  return import('@parl/swarm');
}

async function progressBar(io: CliIo, label: string): Promise<{ update(done: number, total: number): void; stop(): void }> {
  if (!io.stderrIsTTY) return { update: () => undefined, stop: () => undefined };
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar({ stream: io.stderr, format: `${label} {bar} {value}/{total} episodes | ETA {eta_formatted}`, hideCursor: true, fps: 5 }, cliProgress.Presets.shades_classic);
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.update(done);
    },
    stop: () => (started ? bar.stop() : undefined),
  };
}

/** The named failures a run reports in one line (exit code 1): the provider's, the queue's, a worker's, a scorer's, an endpoint that returned no token ids for --token-trajectories. */
const ONE_LINE_ERRORS = new Set(['SwarmProviderError', 'QueueError', 'RolloutJobError', 'SwarmScoreError', 'TokenTrajectoryError']);

/** A provider failure (an unreachable endpoint, HTTP errors after the retries), a lost or unreachable queue, a job a worker failed: one line, exit code 1. */
async function providerErrorsAsLines<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof Error && ONE_LINE_ERRORS.has(err.name)) throw new CliError(err.message, 1);
    throw err;
  }
}

/**
 * What scripted models do with a task file, said when their tool calls failed: they look facts up
 * with the built-in suites' `search` and `open`, which a task file's tasks do not have, so they
 * score 0 — no server is involved, so its tool calling is not to blame.
 */
function scriptedHint(command: string, options: { readonly model: string; readonly tasksFile?: string | undefined }, malformed: number, calls: number): string {
  const tasks = options.tasksFile === undefined ? 'these tasks' : `the tasks of ${options.tasksFile}`;
  return (
    `parl swarm ${command}: note: ${malformed} of the ${calls} tool calls of ${options.model} failed: no server is involved; ` +
    `scripted models look facts up with the built-in suites' search and open, which ${tasks} do not have, so they have nothing to look up and score 0 (they show how the swarm runs, not answers); ` +
    'run a model on an endpoint (--base-url URL --model NAME) to score your own tasks\n'
  );
}

/** One line about malformed tool calls: an error when every call of the orchestrator was malformed, a warning when some were; for a scripted model, what scripted models do instead. */
function checkToolCalls(io: CliIo, command: string, calls: number, malformed: number, firstReason: string | undefined, options: { readonly model: string; readonly tasksFile?: string | undefined }): void {
  if (malformed === 0) return;
  if (options.model.startsWith('scripted:')) {
    io.stderr.write(scriptedHint(command, options, malformed, calls));
    return;
  }
  const line = `${malformed} of the model's ${calls} tool calls were malformed (${firstReason ?? 'rejected'}): is tool calling on in the server (chat template, --enable-auto-tool-choice)?`;
  if (malformed === calls) throw new CliError(`parl swarm ${command}: ${line}`, 1);
  io.stderr.write(`parl swarm ${command}: warning: ${line}\n`);
}

/** The orchestrator's tool calls and the malformed ones, over records. */
function toolCallCounts(records: readonly Readonly<Record<string, unknown>>[]): [calls: number, malformed: number] {
  const calls = records.reduce((n, r) => n + ((r['orchestrator_tool_calls'] as number | undefined) ?? 0), 0);
  const malformed = records.reduce((n, r) => n + ((r['malformed_tool_calls'] as number | undefined) ?? 0), 0);
  return [calls, malformed];
}

/** The first malformed tool call's reason in a line's transcript (`error: AI_…` tool results). */
function firstMalformedIn(line: Readonly<Record<string, unknown>>): string | undefined {
  for (const m of (line['messages'] as readonly { role: string; content: unknown }[] | undefined) ?? []) {
    if (m.role === 'tool' && typeof m.content === 'string' && /^error: AI_/.test(m.content)) return m.content.slice(7, 160);
  }
  return undefined;
}

/** `parl swarm run` with its resolved options. */
export async function swarmRunCommand(io: CliIo, options: SwarmRunOptions): Promise<void> {
  const swarm = await loadSwarm();
  const bar = await progressBar(io, 'parl swarm run');
  const controller = new AbortController();
  let done = 0;
  let total = (options.tasks ?? 0) * options.groupSize;
  let firstMalformed: string | undefined;
  let run: Promise<RolloutSummary> | undefined;
  // Ctrl-C: no new episode starts; once what finished is written, say what is done and how to resume.
  onSignalBeforeExit(async () => {
    controller.abort();
    await run?.catch(() => undefined);
    bar.stop();
    const where = options.out === undefined ? 'nothing was kept (run with --out FILE to make a run resumable)' : `they are in ${options.out}.partial${options.spans === undefined ? '' : ` and ${options.spans}.partial`}: run the same command again to resume`;
    io.stderr.write(`parl swarm run: interrupted after ${done} of ${total} episodes; ${where}\n`);
  });
  let summary: RolloutSummary;
  // Errors of episodes (spec §10.2): the rest ran and was written; said after the closing line.
  let failed: SwarmEpisodesFailedError | undefined;
  try {
    run = providerErrorsAsLines(() =>
      swarm.swarmRun(options, {
        signal: controller.signal,
        onProgress: (d, t) => {
          done = d;
          total = t;
          bar.update(d, t);
        },
        onLine: async (line) => {
          firstMalformed ??= firstMalformedIn(line);
          if (options.out === undefined) await writeOut(io, `${JSON.stringify(line)}\n`);
        },
        onQueueEvent: (e) => logLine(io, `parl swarm run: Redis has not answered for ${e.seconds} s; waiting`),
        onRewardError: (message) => logLine(io, `parl swarm run: warning: reward not reported (the line keeps it as reward_post_error): ${message}`),
      }).catch((err: unknown) => {
        if (!isEpisodesFailed(err)) throw err;
        failed = err as SwarmEpisodesFailedError;
        return failed.summary;
      }),
    );
    summary = await run;
  } catch (err) {
    // Interrupted: the signal's handler says what is done and ends the process (exit code 130).
    if (controller.signal.aborted) await new Promise<never>(() => undefined);
    throw err;
  } finally {
    bar.stop();
    onSignalBeforeExit(async () => undefined);
  }
  checkToolCalls(io, 'run', summary.orchestrator_tool_calls, summary.malformed_tool_calls, firstMalformed, options);
  // The closing line, unless every episode failed (then the failures say it all).
  if (failed === undefined || summary.episodes > 0) io.stderr.write(
    `parl swarm run: ${summary.episodes} episodes${options.out === undefined ? '' : ` in ${options.out}`}${summary.resumed === 0 ? '' : ` (${summary.resumed} resumed)`}${options.spans === undefined ? '' : `, spans in ${options.spans}`}; ` +
      `mean r_perf ${formatNumber(summary.r_perf, 4)}, critical steps ${formatNumber(summary.critical_steps, 4)}, sub-agents ${formatNumber(summary.num_subagents, 4)}` +
      `${options.budget === undefined ? '' : `, budget exhausted in ${summary.budget_exhausted}`}\n`,
  );
  if (failed !== undefined) episodesFailed(io, 'run', failed, summary.episodes === 0);
}

/**
 * Errors of episodes (spec §10.2), as `run` and `eval` both end with them: one line per failed
 * episode naming its task and why, then the count and what a rerun does (exit code 1). One
 * episode, and it failed, with nothing else done (`none`): its line is the whole story (a count
 * of 1 and a rerun hint would add nothing).
 */
function episodesFailed(io: CliIo, command: 'run' | 'eval', failed: SwarmEpisodesFailedError<unknown>, none: boolean): never {
  const lines = failed.failures.map((f) => `task ${f.task_id} failed (${f.rollout_id}): ${f.reason}`);
  if (lines.length === 1 && none) throw new CliError(lines[0] as string, 1);
  for (const line of lines) io.stderr.write(`parl swarm ${command}: ${line}\n`);
  throw new CliError(failed.message, 1);
}

/** Whether `err` is the rejection of a job whose episodes failed (spec §10.2). */
function isEpisodesFailed(err: unknown): err is SwarmEpisodesFailedError<unknown> {
  return err instanceof Error && err.name === 'SwarmEpisodesFailedError';
}

/** Write to stdout, waiting for it to drain when it is full (lines stream; memory stays flat). */
async function writeOut(io: CliIo, text: string): Promise<void> {
  if (!io.stdout.write(text)) await new Promise<void>((resolve) => io.stdout.once('drain', resolve));
}

/**
 * How many swarm episodes' spans show a serial collapse (`@parl/traces`' findings), or undefined
 * when `@parl/traces` is not installed (the evaluation does not need it; the count is left out
 * with a note). Each episode's OTLP document is handed over as its own line.
 */
async function serialCollapses(spans: readonly string[]): Promise<number | undefined> {
  let traces: typeof import('@parl/traces');
  try {
    traces = await import('@parl/traces');
  } catch (err) {
    // Not installed: the count is left out with a note. Installed but broken: said as such.
    if (isMissing(err, '@parl/traces')) return undefined;
    return importOptional('@parl/traces', 'swarm eval', () => Promise.reject(err));
  }
  let n = 0;
  for await (const { finding } of traces.readTraces(spans.map((s) => `${s}\n`), { onWarning: () => undefined })) if (finding.serial_collapse) n++;
  return n;
}

/** Whether an existing `--out` of eval is an evaluation written by parl swarm eval. */
async function recogniseEvaluation(path: string): Promise<string | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return 'it is not one JSON document';
  }
  const v = value as Partial<Record<string, unknown>> | null;
  return typeof v === 'object' && v !== null && Array.isArray(v['latency_to_target']) && typeof v['swarm'] === 'object' && typeof v['single_agent'] === 'object'
    ? undefined
    : 'it has no latency_to_target, swarm and single_agent';
}

/** Whether an existing `--report` is an HTML report written by parl (its charts' data block). */
async function recogniseReport(path: string): Promise<string | undefined> {
  const text = await readFile(path, 'utf8');
  return text.startsWith('<!doctype html>') && text.includes('id="parl-charts"') ? undefined : 'it is not an HTML report written by parl';
}

/** The checks of eval's `--out` and `--report` before any episode runs. */
function evalClaims(options: SwarmEvalOptions): OutputClaim[] {
  const claims: OutputClaim[] = [];
  if (options.out !== undefined) claims.push({ flag: '--out', path: options.out, kind: 'an evaluation of parl swarm eval', recognise: recogniseEvaluation, allowSpecial: true });
  if (options.report !== undefined) claims.push({ flag: '--report', path: options.report, kind: 'an HTML report of parl', recognise: recogniseReport, allowSpecial: true });
  return claims;
}

/** The evaluation's HTML report: the latency-to-target curves and the summary table. */
export async function swarmEvalReport(evaluation: SwarmEvaluation, serialCollapse: number | undefined): Promise<string> {
  const [{ renderChartPage }, { taskScoresTable }] = await Promise.all([import('../report/html-page.js'), import('../report/swarm-task-scores.js')]);
  const row = (name: string, m: SwarmEvaluation['swarm'], collapse: string) =>
    `<tr><th>${name}</th><td>${meanOf(m, 'r_perf')}</td><td>${meanOf(m, 'critical_steps')}</td><td>${meanOf(m, 'subagents')}</td><td>${m.finish_rate === null ? '—' : formatNumber(m.finish_rate, 4)}</td><td>${collapse}</td></tr>`;
  const table =
    '<table id="summary"><thead><tr><th></th><th>r_perf</th><th>critical steps</th><th>sub-agents / episode</th><th>finish rate</th><th>serial collapse</th></tr></thead><tbody>' +
    row('swarm', evaluation.swarm, serialCollapse === undefined ? '— (needs @parl/traces)' : `${serialCollapse} of ${evaluation.swarm.graded}`) +
    row('single agent', evaluation.single_agent, '—') +
    '</tbody></table>';
  const points = (key: 'swarm' | 'single_agent') => evaluation.latency_to_target.filter((r) => r[key] !== null).map((r) => ({ x: r.target, y: r[key] }));
  const swarmPoints = points('swarm');
  const singlePoints = points('single_agent');
  const targets = evaluation.latency_to_target.map((r) => formatNumber(r.target, 4)).join(', ');
  const failures = evaluation.failures;
  // Episodes that failed (spec §10.2) are in no mean: said, each named, never shown as a 0.
  const ungraded =
    failures.length === 0
      ? ''
      : ` ${failures.length} episode${failures.length === 1 ? '' : 's'} failed and ${failures.length === 1 ? 'is' : 'are'} not graded (left out of every mean and curve): ${failures.map((f) => `${f.rollout_id} (${f.reason})`).join('; ')}.`;
  const lead = `${evaluation.tasks} tasks (${evaluation.tasks_file === null ? `seed ${evaluation.seed}` : `from ${evaluation.tasks_file}`}), each run by the swarm and by a single agent (the same model without assign_task), no budget.${ungraded}`;
  const title = `parl swarm eval: ${evaluation.model} on ${evaluation.suite ?? evaluation.tasks_file}`;
  if (swarmPoints.length === 0 && singlePoints.length === 0) {
    // Nothing to draw: say so in a sentence instead of an empty chart.
    const none =
      `<p class="lead" id="no-target">Neither the swarm nor the single agent reached any r_perf target (${targets}): ` +
      `their mean r_perf was ${meanOf(evaluation.swarm, 'r_perf')} and ${meanOf(evaluation.single_agent, 'r_perf')}, so there is no latency-to-target curve to draw. ` +
      'Lower targets (--targets) show how far each got.</p>';
    return renderChartPage({ title, lead, blocks: [table, none, taskScoresTable(evaluation.records.swarm, evaluation.records.single_agent, evaluation.answers, evaluation.task_ids)], charts: [] });
  }
  const missing = swarmPoints.length === 0 ? ' The swarm reached none of the targets.' : singlePoints.length === 0 ? ' The single agent reached none of the targets.' : '';
  return renderChartPage({
    title,
    lead,
    blocks: [table, taskScoresTable(evaluation.records.swarm, evaluation.records.single_agent, evaluation.answers, evaluation.task_ids)],
    charts: [
      {
        title: 'Latency to target',
        caption: `The critical-step budget each needs to reach a mean r_perf target (a point is missing where it never does): lower is faster.${missing}`,
        config: {
          type: 'line',
          data: {
            datasets: [
              { label: 'swarm', data: swarmPoints },
              { label: 'single agent', data: singlePoints },
            ],
          },
          options: { scales: { x: { type: 'linear', title: { display: true, text: 'r_perf target' } }, y: { title: { display: true, text: 'critical steps' } } } },
        },
      },
    ],
  });
}

/** `parl swarm eval` with its resolved options. */
export async function swarmEvalCommand(io: CliIo, options: SwarmEvalOptions): Promise<void> {
  const swarm = await loadSwarm();
  await claimOutputs(evalClaims(options));
  // An earlier evaluation in --out with failures: the same command grades only what failed or is missing.
  const previous = options.out === undefined ? undefined : await earlierEvaluation(options.out);
  const bar = await progressBar(io, 'parl swarm eval');
  let evaluation: SwarmEvaluation;
  // Errors of episodes (spec §10.2), as run has them: the rest is graded and written; said after the closing line.
  let failed: SwarmEpisodesFailedError<SwarmEvaluation> | undefined;
  try {
    evaluation = await providerErrorsAsLines(() =>
      swarm.swarmEval(options, { onProgress: (d, t) => bar.update(d, t), ...(previous === undefined ? {} : { previous }) }).catch((err: unknown) => {
        if (!isEpisodesFailed(err)) throw err;
        failed = err as SwarmEpisodesFailedError<SwarmEvaluation>;
        return failed.summary;
      }),
    );
  } finally {
    bar.stop();
  }
  const graded = evaluation.swarm.graded + evaluation.single_agent.graded;
  const ran = [...evaluation.records.swarm, ...evaluation.records.single_agent];
  if (graded > 0) checkToolCalls(io, 'eval', ...toolCallCounts(ran), undefined, options);
  const collapse = await serialCollapses(evaluation.swarm_spans);
  if (collapse === undefined) io.stderr.write(`parl swarm eval: note: serial collapse not counted (serial_collapse is null): it reads the spans with @parl/traces, which is not installed: ${installHint('@parl/traces')}\n`);
  // A resumed evaluation's spans are not kept: its graded swarm episodes' count carries over.
  const serialCollapse = collapse === undefined ? null : evaluation.resumed === 0 ? collapse : typeof previous?.serial_collapse === 'number' ? previous.serial_collapse + collapse : null;
  const { swarm_spans: _spans, ...rest } = evaluation;
  const json = `${JSON.stringify({ ...rest, serial_collapse: serialCollapse }, null, 2)}\n`;
  if (options.out === undefined) io.stdout.write(json);
  else await writeFileAtomic(options.out, json);
  if (options.report !== undefined) await writeFileAtomic(options.report, await swarmEvalReport(evaluation, serialCollapse ?? undefined), '--report');
  const l = evaluation.latency_to_target.map((r) => `${r.target}: ${r.swarm ?? '—'} vs ${r.single_agent ?? '—'}`).join(', ');
  const counts = failed === undefined ? '' : ` over ${evaluation.swarm.graded} and ${evaluation.single_agent.graded} graded episodes (${evaluation.swarm.failed} and ${evaluation.single_agent.failed} failed)`;
  const resumed = evaluation.resumed === 0 ? '' : ` (${evaluation.resumed} episodes resumed from ${options.out})`;
  // The closing line, unless every episode failed (then the failures say it all).
  if (failed === undefined || graded > 0)
    io.stderr.write(`parl swarm eval: r_perf ${meanOf(evaluation.swarm, 'r_perf')} (swarm) vs ${meanOf(evaluation.single_agent, 'r_perf')} (single agent)${counts}; critical steps to target ${l}${resumed}\n`);
  if (failed !== undefined) episodesFailed(io, 'eval', failed, graded === 0);
}

/** A mean of one mode, to 4 significant digits; an em dash when none of its episodes was graded. */
function meanOf(mode: SwarmEvaluation['swarm'], key: 'r_perf' | 'critical_steps' | 'subagents'): string {
  const value = mode[key];
  return value === null ? '—' : formatNumber(value, 4);
}

/** The evaluation already in eval's `--out` (checked by its claim to be one), or undefined when there is none yet. */
async function earlierEvaluation(path: string): Promise<(SwarmEvaluation & { readonly serial_collapse?: number | null }) | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as SwarmEvaluation & { readonly serial_collapse?: number | null };
  } catch {
    return undefined;
  }
}
