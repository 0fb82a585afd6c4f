/**
 * The report's charts as Chart.js configurations, built from a run folder's metrics and summary.
 * Pure data mapping: every number shown was computed by the trainer.
 *
 * @module
 */
import type { PageChart } from './html-page.js';
import type { StepMetrics } from '@parl/core';
import type { RunData } from './run-folder.js';
import { compareCurves } from './verdict.js';

/** The palette: distinguishable, colour-blind-friendly (Okabe–Ito). */
const COLORS = {
  blue: '#0072B2',
  orange: '#E69F00',
  green: '#009E73',
  red: '#D55E00',
  purple: '#CC79A7',
  sky: '#56B4E9',
  grey: '#6b7280',
} as const;

function series(metrics: readonly StepMetrics[], key: keyof StepMetrics): { x: number; y: number | null }[] {
  return metrics.map((m) => ({ x: m.step, y: m[key] ?? null }));
}

function line(label: string, data: unknown, color: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { label, data, borderColor: color, backgroundColor: color, pointRadius: 0, borderWidth: 2, ...extra };
}

/** Legend keys drawn as short thick lines rather than boxes (dashed datasets stay readable). */
const LINE_LEGEND = { legend: { labels: { boxWidth: 28, boxHeight: 3 } } } as const;

function stepAxis(): Record<string, unknown> {
  return { type: 'linear', title: { display: true, text: 'training step' } };
}

function axis(title: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: { display: true, text: title }, ...extra };
}

/** λ1 and λ2 over training steps. */
export function lambdaChart(run: RunData): PageChart {
  return {
    title: 'λ1 and λ2 over training',
    caption: 'The auxiliary-reward weights anneal so that the final policy optimises r_perf alone.',
    config: {
      type: 'line',
      data: {
        datasets: [
          // λ2 is drawn on top (lower `order`), dashed, so it stays visible where the two coincide.
          line('λ1 (r_parallel weight)', series(run.metrics, 'lambda1'), COLORS.blue, { borderWidth: 4, order: 2 }),
          line('λ2 (r_finish weight)', series(run.metrics, 'lambda2'), COLORS.orange, { borderDash: [6, 4], order: 1 }),
        ],
      },
      options: { parsing: false, plugins: LINE_LEGEND, scales: { x: stepAxis(), y: axis('weight') } },
    },
  };
}

/** total reward and its three terms over training steps. */
export function rewardTermsChart(run: RunData): PageChart {
  return {
    title: 'Reward terms over training',
    caption: 'Means over each step’s rollouts: total_reward = λ1·r_parallel + λ2·r_finish + r_perf.',
    config: {
      type: 'line',
      data: {
        datasets: [
          line('total_reward', series(run.metrics, 'total_reward'), COLORS.grey, { borderWidth: 3 }),
          line('r_perf', series(run.metrics, 'r_perf'), COLORS.green),
          line('r_parallel', series(run.metrics, 'r_parallel'), COLORS.blue),
          line('r_finish', series(run.metrics, 'r_finish'), COLORS.orange),
        ],
      },
      options: { parsing: false, plugins: LINE_LEGEND, scales: { x: stepAxis(), y: axis('reward') } },
    },
  };
}

/** mean width (left axis) with finish and success rates (right axis) over training steps. */
export function widthChart(run: RunData): PageChart {
  return {
    title: 'Mean width and finish rate over training',
    caption:
      'Sub-agents per launched group (left) against the sub-agent finish rate and the success rate (right). The finish rate is missing where no sub-agent was launched; success counts episodes that ended with every subtask returned, whether right or not, so it can sit above or below r_perf (the share solved correctly).',
    config: {
      type: 'line',
      data: {
        datasets: [
          line('mean_width', series(run.metrics, 'mean_width'), COLORS.purple, { yAxisID: 'y' }),
          // No sub-agent launched in a step: its finish rate does not apply (a gap, not a 1).
          line('finish_rate (sub-agents that finished)', run.metrics.map((m) => ({ x: m.step, y: m.mean_width === 0 ? null : m.finish_rate })), COLORS.orange, {
            yAxisID: 'y1',
            spanGaps: false,
          }),
          line('success_rate (episodes that returned every subtask)', series(run.metrics, 'success_rate'), COLORS.green, { yAxisID: 'y1', borderDash: [6, 4] }),
        ],
      },
      options: {
        parsing: false,
        plugins: LINE_LEGEND,
        scales: {
          x: stepAxis(),
          y: axis('mean width (sub-agents)', { position: 'left', beginAtZero: true }),
          y1: axis('rate', { position: 'right', min: 0, max: 1, grid: { drawOnChartArea: false } }),
        },
      },
    },
  };
}

/** Colour of the i-th of n training steps, light (early) to dark (late). */
function progressColor(i: number, n: number): string {
  const t = n <= 1 ? 1 : i / (n - 1);
  const alpha = (0.2 + 0.8 * t).toFixed(3);
  return `rgba(0, 114, 178, ${alpha})`;
}

/** Each training step's (critical steps, r_perf), with the final policy and the serial baseline. */
export function criticalStepsChart(run: RunData): PageChart {
  const n = run.metrics.length;
  return {
    title: 'Critical steps against r_perf',
    caption: 'Each dot is one training step (darker is later); the goal is the top left: high r_perf in few critical steps.',
    config: {
      type: 'scatter',
      data: {
        datasets: [
          {
            label: 'training steps',
            data: run.metrics.map((m) => ({ x: m.critical_steps, y: m.r_perf })),
            backgroundColor: run.metrics.map((_, i) => progressColor(i, n)),
            borderColor: 'rgba(0,0,0,0)',
            pointRadius: 3,
            // drawn first (higher order), so the two marked points stay on top of the cloud
            order: 3,
          },
          {
            label: 'final policy (greedy, held-out)',
            data: [{ x: run.summary.final.critical_steps, y: run.summary.final.r_perf }],
            backgroundColor: COLORS.green,
            borderColor: '#1d2330',
            pointStyle: 'rectRot',
            pointRadius: 9,
            order: 1,
          },
          {
            label: 'serial baseline',
            data: [{ x: run.summary.baseline_serial.critical_steps, y: run.summary.baseline_serial.r_perf }],
            backgroundColor: COLORS.red,
            borderColor: '#1d2330',
            pointStyle: 'triangle',
            pointRadius: 9,
            order: 1,
          },
        ],
      },
      options: { parsing: false, scales: { x: axis('critical steps', { type: 'linear' }), y: axis('r_perf') } },
    },
  };
}

/**
 * The cost of the swarm over training: mean total steps (spec §2 work, left) and sub-agents
 * launched (right) per rollout. Null when the metrics do not record them (older run folders).
 */
function workChart(run: RunData): PageChart | null {
  if (!run.metrics.some((m) => m.total_steps !== undefined || m.subagents !== undefined)) return null;
  const serial = run.summary.baseline_serial.total_steps;
  return {
    title: 'Work and sub-agents per episode over training',
    caption:
      'Means over each step’s rollouts: total steps = every step of the orchestrator and of every sub-agent, idle ones included (left); sub-agents launched (right). Parallelism pays in critical steps and costs in work.' +
      (serial === undefined ? '' : ` The always-serial baseline does ${serial.toPrecision(4)} total steps per held-out episode.`),
    config: {
      type: 'line',
      data: {
        datasets: [
          line('total steps per episode', series(run.metrics, 'total_steps'), COLORS.grey, { yAxisID: 'y' }),
          line('sub-agents per episode', series(run.metrics, 'subagents'), COLORS.purple, { yAxisID: 'y1', borderDash: [6, 4] }),
        ],
      },
      options: {
        parsing: false,
        plugins: LINE_LEGEND,
        scales: {
          x: stepAxis(),
          y: axis('total steps', { position: 'left', beginAtZero: true }),
          y1: axis('sub-agents', { position: 'right', beginAtZero: true, grid: { drawOnChartArea: false } }),
        },
      },
    },
  };
}

/**
 * Delegation over training: the assign rate (share of a step's rollouts that launched at least one
 * sub-agent) against the truncated share (cut by the budget or the orchestrator's step or context
 * limit) and, without the direct tool, the repeat share. Null when the metrics do not record them
 * (older run folders).
 */
export function assignChart(run: RunData): PageChart | null {
  if (!run.metrics.some((m) => m.assign_rate !== undefined)) return null;
  const repeats = run.metrics.some((m) => (m.repeat_share ?? 0) > 0);
  return {
    title: 'Assign rate and truncation over training',
    caption:
      'Shares of each step’s rollouts: those that launched at least one sub-agent (the assign rate, OpenPARL’s measure of learned delegation), those cut by the critical-step budget or by the orchestrator’s step or context limit' +
      (repeats ? ', and those in which the orchestrator repeated itself at least once (possible only without the direct tool)' : '') +
      '.',
    config: {
      type: 'line',
      data: {
        datasets: [
          line('assign rate (rollouts that launched)', series(run.metrics, 'assign_rate'), COLORS.blue, { borderWidth: 3 }),
          line('truncated (budget, steps or context)', series(run.metrics, 'truncated_share'), COLORS.red, { borderDash: [6, 4] }),
          ...(repeats ? [line('repeated themselves', series(run.metrics, 'repeat_share'), COLORS.orange, { borderDash: [2, 3] })] : []),
        ],
      },
      options: { parsing: false, plugins: LINE_LEGEND, scales: { x: stepAxis(), y: axis('share of rollouts', { min: 0, max: 1 }) } },
    },
  };
}

const BASELINE_COLORS: Record<string, string> = { serial: COLORS.red, balanced: COLORS.orange, 'max-parallel': COLORS.purple };

/**
 * The critical-step budget each policy needs to reach each r_perf target; a gap where it never
 * does. Every scripted baseline recorded in the summary is drawn, also where it coincides with the
 * trained policy (its label says so, and it is drawn thick underneath so both stay visible).
 */
export function latencyChart(run: RunData): PageChart {
  const rows = run.summary.latency_to_target;
  const trained = rows.map((r) => r.policy);
  const pts = (values: readonly (number | null)[]): { x: number; y: number | null }[] => rows.map((r, i) => ({ x: r.target, y: values[i] ?? null }));
  const baselines = run.summary.baselines ?? [{ policy: 'serial', latency: rows.map((r) => r.serial), same_as_trained: false }];
  const coinciding: string[] = [];
  const datasets = baselines.map((b, i) => {
    const same = b.same_as_trained || compareCurves(trained, b.latency) === 'identical';
    if (same) coinciding.push(b.policy);
    const label = `${b.policy}${same ? ' (coincides with the trained policy)' : ''}`;
    return line(label, pts(b.latency), BASELINE_COLORS[b.policy] ?? COLORS.grey, {
      pointRadius: 4,
      spanGaps: false,
      borderDash: [6, 4 + i],
      ...(same ? { borderWidth: 7, order: 3 } : { order: 2 }),
    });
  });
  const note = coinciding.length === 0 ? '' : ` The curve of ${coinciding.join(' and ')} coincides with the trained policy's: drawn thick underneath it.`;
  return {
    title: 'Latency to target: trained policy vs scripted baselines',
    caption: `Critical-step budget needed to reach each r_perf target (lower is faster); a missing point means the target is never reached.${note}`,
    config: {
      type: 'line',
      data: {
        datasets: [line('trained policy', pts(trained), COLORS.blue, { pointRadius: 4, spanGaps: false, order: 1 }), ...datasets],
      },
      options: { parsing: false, plugins: LINE_LEGEND, scales: { x: axis('r_perf target', { type: 'linear' }), y: axis('critical-step budget', { beginAtZero: true }) } },
    },
  };
}

/** Every chart of the report, in reading order. */
export function runCharts(run: RunData): PageChart[] {
  const work = workChart(run);
  const assign = assignChart(run);
  return [
    lambdaChart(run),
    rewardTermsChart(run),
    ...(assign === null ? [] : [assign]),
    widthChart(run),
    ...(work === null ? [] : [work]),
    criticalStepsChart(run),
    latencyChart(run),
  ];
}
