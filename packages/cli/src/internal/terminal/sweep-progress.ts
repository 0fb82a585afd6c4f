/**
 * Sweep progress on stderr: a live bar over runs (done/total, ETA, skipped, failed) when stderr is
 * a terminal, otherwise one line per finished run — never on stdout.
 *
 * @module
 */
import cliProgress from 'cli-progress';
import { formatNumber } from '../report/format-number.js';
import type { CliIo } from '../../terminal/cli-io.js';
import type { SweepRunEvent } from '@parl/sim';

/** One run that left the sweep's to-do list: the event `@parl/sim`'s sweep runner reports. */
export type SweepProgressEvent = SweepRunEvent;

/** Shows a sweep's progress; {@link SweepProgress.stop} ends the bar. */
export interface SweepProgress {
  /** One run is done. */
  update(event: SweepProgressEvent): void;
  /** Remove or finish the bar. */
  stop(): void;
}

function line(label: string, e: SweepProgressEvent): string {
  const head = `${label}: run ${e.done}/${e.total} ${e.runId} (${e.label})`;
  if (e.kind === 'skipped') return `${head} already complete, skipped`;
  if (e.kind === 'failed') return `${head} failed: ${e.error ?? 'unknown error'}`;
  return `${head} done in ${formatNumber(e.wallSeconds ?? 0, 3)}s: r_perf ${formatNumber(e.r_perf ?? 0, 4)}, speed-up ${formatNumber(e.speedup ?? 0, 3)}×`;
}

/**
 * The progress display for `io`: a bar over runs when stderr is a terminal (failures are printed as
 * lines under it when it stops), plain lines otherwise, nothing with `quiet`.
 */
export function createSweepProgress(io: CliIo, label: string, quiet = false): SweepProgress {
  if (quiet) return { update: () => undefined, stop: () => undefined };
  if (!io.stderrIsTTY) return { update: (e) => io.stderr.write(`${line(label, e)}\n`), stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    { stream: io.stderr, format: `${label} {bar} {value}/{total} runs | ETA {eta_formatted} | skipped {skipped} | failed {failed}`, hideCursor: true, clearOnComplete: false, etaBuffer: 8, fps: 5 },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let skipped = 0;
  let failed = 0;
  const failures: string[] = [];
  return {
    update(e): void {
      if (e.kind === 'skipped') skipped++;
      if (e.kind === 'failed') failed++;
      if (!started) {
        bar.start(e.total, 0, { skipped, failed });
        started = true;
      }
      if (e.kind === 'failed') failures.push(line(label, e));
      bar.update(e.done, { skipped, failed });
    },
    stop(): void {
      if (started) bar.stop();
      for (const f of failures) io.stderr.write(`${f}\n`);
    },
  };
}
