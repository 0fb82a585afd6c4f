/**
 * The HTML view of one episode for `GET /v1/episodes/{id}` opened in a browser: the trace report
 * of `@parl/traces` for that one episode (its timeline as run, critical path, launched-together
 * schedule and finding in words), chosen by content negotiation on `Accept`.
 *
 * @module
 */
import { traceReportHtml, type TraceClock } from '@parl/traces';
import type { StoredEpisode } from '../episodes/episode-store.js';

/** The page of one episode (see `traceReportHtml` in `@parl/traces`). */
export function episodePageHtml(episode: StoredEpisode, clock: TraceClock | undefined): string {
  return traceReportHtml([{ record: episode.record, finding: episode.finding }], {
    drawn: 1,
    title: `Episode ${episode.id}`,
    ...(clock === undefined ? {} : { clock }),
  });
}
