/**
 * Training progress on stderr: a live bar (step, ETA, λ1, λ2, mean reward, mean width) when stderr
 * is a terminal, otherwise a plain log line every tenth of the run — never on stdout.
 *
 * @module
 */
import type { TrainingProgress } from '@parl/sim';
import cliProgress from 'cli-progress';
import { formatNumber } from '../report/format-number.js';
import type { CliIo } from '../../terminal/cli-io.js';

/** The fields of the trainer's {@link @parl/sim!TrainingProgress} that the bar shows. */
export type ProgressUpdate = Pick<TrainingProgress, 'step' | 'totalSteps' | 'lambda1' | 'lambda2' | 'total_reward' | 'mean_width' | 'elapsedMs'>;

/** Shows training progress; {@link ProgressReporter.stop} ends the bar (call it on failure too). */
export interface ProgressReporter {
  /** Record one finished step. */
  update(progress: ProgressUpdate): void;
  /** Remove or finish the bar. */
  stop(): void;
}

function fields(p: ProgressUpdate): Record<string, string> {
  return {
    lambda1: formatNumber(p.lambda1, 3),
    lambda2: formatNumber(p.lambda2, 3),
    reward: formatNumber(p.total_reward, 4),
    width: formatNumber(p.mean_width, 3),
  };
}

function eta(p: ProgressUpdate): string {
  if (p.step <= 0) return '?';
  const seconds = ((p.elapsedMs / p.step) * (p.totalSteps - p.step)) / 1000;
  return seconds < 90 ? `${seconds.toFixed(0)}s` : `${(seconds / 60).toFixed(1)}m`;
}

/** A cli-progress bar on `stream` (a terminal). */
function barReporter(stream: NodeJS.WritableStream, label: string): ProgressReporter {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${label} {bar} {value}/{total} steps | ETA {eta_formatted} | λ1 {lambda1} λ2 {lambda2} | reward {reward} | width {width}`,
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 20,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p): void {
      if (!started) {
        bar.start(p.totalSteps, 0, fields(p));
        started = true;
      }
      bar.update(p.step, fields(p));
    },
    stop(): void {
      if (started) bar.stop();
    },
  };
}

/** Plain lines on a non-terminal stderr: the first step, every tenth of the run, and the last. */
function lineReporter(io: CliIo, label: string): ProgressReporter {
  let nextTenth = 1;
  return {
    update(p): void {
      const tenth = Math.floor((10 * p.step) / p.totalSteps);
      if (p.step !== 1 && p.step !== p.totalSteps && tenth < nextTenth) return;
      nextTenth = tenth + 1;
      const f = fields(p);
      io.stderr.write(
        `${label}: step ${p.step}/${p.totalSteps} λ1=${f['lambda1']} λ2=${f['lambda2']} reward=${f['reward']} width=${f['width']} elapsed=${(p.elapsedMs / 1000).toFixed(1)}s eta=${eta(p)}\n`,
      );
    },
    stop(): void {},
  };
}

/**
 * The progress display for `io`: a bar when stderr is a terminal, plain lines otherwise, nothing
 * with `quiet`.
 */
export function createProgressReporter(io: CliIo, label: string, quiet = false): ProgressReporter {
  if (quiet) return { update: () => undefined, stop: () => undefined };
  return io.stderrIsTTY ? barReporter(io.stderr, label) : lineReporter(io, label);
}
