/**
 * `parl swarm run` and `parl swarm eval`: the Agent Swarm on an OpenAI-compatible endpoint
 * (spec §10). `@parl/swarm` itself, with the AI SDK, is an optional peer loaded only here, when a
 * swarm command runs; the flags are wired in `../swarm-program.ts`.
 *
 * @module
 */
import { writeFileAtomic } from '@parl/io';
import type { RolloutLine, SwarmEvaluation, SwarmEvalOptions, SwarmRunOptions } from '@parl/swarm';
import { CliError } from '../errors.js';
import { logLine, type CliIo } from '../io/cli-io.js';
import { formatNumber } from '../report/format-number.js';


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

/** The named failures a run reports in one line (exit code 1): the provider's, the queue's, a worker's, an endpoint that returned no token ids for --token-trajectories. */
const ONE_LINE_ERRORS = new Set(['SwarmProviderError', 'QueueError', 'RolloutJobError', 'TokenTrajectoryError']);

/** A provider failure (an unreachable endpoint, HTTP errors after the retries), a lost or unreachable queue, a job a worker failed: one line, exit code 1. */
async function providerErrorsAsLines<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof Error && ONE_LINE_ERRORS.has(err.name)) throw new CliError(err.message, 1);
    throw err;
  }
}

/** One line about malformed tool calls: an error when every call of the orchestrator was malformed, a warning when some were. */
function checkToolCalls(io: CliIo, command: string, records: readonly Readonly<Record<string, unknown>>[], firstReason: string | undefined): void {
  const calls = records.reduce((n, r) => n + ((r['orchestrator_tool_calls'] as number | undefined) ?? 0), 0);
  const malformed = records.reduce((n, r) => n + ((r['malformed_tool_calls'] as number | undefined) ?? 0), 0);
  if (malformed === 0) return;
  const line = `${malformed} of the model's ${calls} tool calls were malformed (${firstReason ?? 'rejected'}): is tool calling on in the server (chat template, --enable-auto-tool-choice)?`;
  if (malformed === calls) throw new CliError(`parl swarm ${command}: ${line}`, 1);
  io.stderr.write(`parl swarm ${command}: warning: ${line}\n`);
}

function firstMalformed(lines: readonly RolloutLine[]): string | undefined {
  for (const line of lines) {
    for (const m of (line['messages'] as readonly { role: string; content: unknown }[] | undefined) ?? []) {
      if (m.role === 'tool' && typeof m.content === 'string' && /^error: AI_/.test(m.content)) return m.content.slice(7, 160);
    }
  }
  return undefined;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

/** `parl swarm run` with its resolved options. */
export async function swarmRunCommand(io: CliIo, options: SwarmRunOptions): Promise<void> {
  const swarm = await loadSwarm();
  const bar = await progressBar(io, 'parl swarm run');
  let lines: RolloutLine[];
  try {
    lines = await providerErrorsAsLines(() =>
      swarm.swarmRun(options, {
        onProgress: (d, t) => bar.update(d, t),
        onQueueEvent: (e) => logLine(io, `parl swarm run: Redis has not answered for ${e.seconds} s; waiting`),
        onRewardError: (message) => logLine(io, `parl swarm run: warning: reward not reported (the line keeps it as reward_post_error): ${message}`),
      }),
    );
  } finally {
    bar.stop();
  }
  checkToolCalls(io, 'run', lines, firstMalformed(lines));
  if (options.out === undefined) for (const line of lines) io.stdout.write(`${JSON.stringify(line)}\n`);
  const num = (k: string) => lines.map((l) => l[k] as number);
  const exhausted = lines.filter((l) => l['budget_exhausted'] === true).length;
  io.stderr.write(
    `parl swarm run: ${lines.length} episodes${options.out === undefined ? '' : ` in ${options.out}`}${options.spans === undefined ? '' : `, spans in ${options.spans}`}; ` +
      `mean r_perf ${formatNumber(mean(num('r_perf')), 4)}, critical steps ${formatNumber(mean(num('critical_steps')), 4)}, sub-agents ${formatNumber(mean(num('num_subagents')), 4)}` +
      `${options.budget === undefined ? '' : `, budget exhausted in ${exhausted}`}\n`,
  );
}

async function serialCollapses(spans: readonly string[]): Promise<number> {
  const { readTraces } = await import('@parl/traces');
  let n = 0;
  // One OTLP export request per line, as in a spans file (the requests' texts alone would run together).
  for await (const { finding } of readTraces(spans.map((s) => `${s}\n`), { onWarning: () => undefined })) if (finding.serial_collapse) n++;
  return n;
}

/** The evaluation's HTML report: the latency-to-target curves and the summary table. */
export async function swarmEvalReport(evaluation: SwarmEvaluation, serialCollapse: number): Promise<string> {
  const { renderChartPage } = await import('../report/html-page.js');
  const row = (name: string, m: SwarmEvaluation['swarm'], collapse: string) =>
    `<tr><th>${name}</th><td>${formatNumber(m.r_perf, 4)}</td><td>${formatNumber(m.critical_steps, 4)}</td><td>${formatNumber(m.subagents, 4)}</td><td>${m.finish_rate === null ? '—' : formatNumber(m.finish_rate, 4)}</td><td>${collapse}</td></tr>`;
  const table =
    '<table id="summary"><thead><tr><th></th><th>r_perf</th><th>critical steps</th><th>sub-agents / episode</th><th>finish rate</th><th>serial collapse</th></tr></thead><tbody>' +
    row('swarm', evaluation.swarm, `${serialCollapse} of ${evaluation.tasks}`) +
    row('single agent', evaluation.single_agent, '—') +
    '</tbody></table>';
  const points = (key: 'swarm' | 'single_agent') => evaluation.latency_to_target.filter((r) => r[key] !== null).map((r) => ({ x: r.target, y: r[key] }));
  return renderChartPage({
    title: `parl swarm eval: ${evaluation.model} on ${evaluation.suite}`,
    lead: `${evaluation.tasks} tasks (seed ${evaluation.seed}), each run by the swarm and by a single agent (the same model without assign_task), no budget.`,
    blocks: [table],
    charts: [
      {
        title: 'Latency to target',
        caption: 'The critical-step budget each needs to reach a mean r_perf target (a point is missing where it never does): lower is faster.',
        config: {
          type: 'line',
          data: {
            datasets: [
              { label: 'swarm', data: points('swarm') },
              { label: 'single agent', data: points('single_agent') },
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
  const bar = await progressBar(io, 'parl swarm eval');
  let evaluation: SwarmEvaluation;
  try {
    evaluation = await providerErrorsAsLines(() => swarm.swarmEval(options, { onProgress: (d, t) => bar.update(d, t) }));
  } finally {
    bar.stop();
  }
  checkToolCalls(io, 'eval', [...evaluation.records.swarm, ...evaluation.records.single_agent], undefined);
  const collapse = await serialCollapses(evaluation.swarm_spans);
  const { swarm_spans: _spans, ...rest } = evaluation;
  const json = `${JSON.stringify({ ...rest, serial_collapse: collapse }, null, 2)}\n`;
  if (options.out === undefined) io.stdout.write(json);
  else await writeFileAtomic(options.out, json);
  if (options.report !== undefined) await writeFileAtomic(options.report, await swarmEvalReport(evaluation, collapse), '--report');
  const l = evaluation.latency_to_target.map((r) => `${r.target}: ${r.swarm ?? '—'} vs ${r.single_agent ?? '—'}`).join(', ');
  io.stderr.write(`parl swarm eval: r_perf ${formatNumber(evaluation.swarm.r_perf, 4)} (swarm) vs ${formatNumber(evaluation.single_agent.r_perf, 4)} (single agent); critical steps to target ${l}\n`);
}

