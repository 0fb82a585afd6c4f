/**
 * The state behind the HTTP routes: the episode log (replayed at start), the episodes in
 * memory, open traces, the dashboard's aggregates and the metrics; and what accepting rewards,
 * spans and outcomes means for each of them. Everything acknowledged is in the log first.
 *
 * @module
 */
import { labelReward, recordText, type ResolvedRewardConfig, type RewardConfig } from '@parl/core';
import { decodeOtlpProtobuf, LiveTraceIntake, readExportRequest, type OtlpExportRead, type SerialCollapseFinding, type TraceResult } from '@parl/traces';
import { EpisodeLog } from './internal/episode-log.js';
import { EpisodeStore, type StoredEpisode } from './episodes/episode-store.js';
import { otlpLogLine, rewardLogLine, type LogEntry } from './episodes/log-entry.js';
import { RewardLogLines } from './episodes/reward-log-lines.js';
import { episodePoint, type DashboardStats } from './dashboard/live-stats.js';
import { LiveStats } from './internal/live-stats.js';
import type { LabelledBody } from '@parl/io';
import { packedPointCount, reusedPoints } from './internal/packed-points.js';
import { createRecordsLabeller, type RecordsLabeller } from './labelling/records-labeller.js';
import { deserializeSlice } from './threads/span-slices.js';
import type { OtlpReadSlices, TraceMappingOutput } from './threads/thread-tasks.js';
import { traceMapper, type ThreadMapper } from './threads/trace-mapping.js';
import { ServeMetrics } from './metrics.js';
import type { ServerResponse } from 'node:http';
import type { ResolvedServeOptions } from './resolve-options.js';

/** Records of a labelled body held and counted between two turns of the event loop (about a millisecond). */
export const ACCEPT_SLICE = 2048;

/** Let the event loop serve what is waiting (I/O callbacks included) before going on. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Where an accepted episode came from (the `source` label of `parl_episodes_total`). */
export type EpisodeSource = 'rewards' | 'get_reward' | 'traces' | 'outcome';

interface PendingTrace {
  spans: Record<string, unknown>[];
  rollout: string | undefined;
}

/** The server's state; {@link ParlService.start} opens and replays the log. */
export class ParlService {
  /** Episodes in memory. */
  readonly store: EpisodeStore;
  /** The dashboard's aggregates. */
  readonly stats: DashboardStats;
  private readonly liveStats = new LiveStats();
  /** Makes the log lines of `/v1/rewards` answers labelled without them. */
  private readonly rewardLogLines = new RewardLogLines();
  /** The metrics. */
  readonly metrics: ServeMetrics;
  /** Open traces (assembled by `@parl/traces`). */
  readonly intake: LiveTraceIntake;
  /** The dashboard's open event streams (`GET /events`), ended at shutdown. */
  readonly eventStreams = new Set<ServerResponse>();
  /** Entries replayed from the log at start. */
  replayed = 0;
  private log: EpisodeLog | undefined;
  private labellerOf: RecordsLabeller | undefined;

  private constructor(readonly options: ResolvedServeOptions) {
    this.store = new EpisodeStore(options.maxEpisodes);
    this.stats = this.liveStats;
    this.metrics = new ServeMetrics({
      openTraces: () => this.intake.openTraces,
      openSpans: () => this.intake.openSpans,
      episodesInMemory: () => this.store.size,
      log: () => this.log?.stats,
      streamBufferedBytes: () => {
        let bytes = 0;
        for (const res of this.eventStreams) bytes += res.writableLength;
        return bytes;
      },
    });
    this.intake = new LiveTraceIntake({
      ...(options.grouping === undefined ? {} : { grouping: options.grouping }),
      ...(options.stepsFrom === undefined ? {} : { stepsFrom: options.stepsFrom }),
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      quietPeriodMs: options.quietPeriodMs,
      timeoutMs: options.traceTimeoutMs,
      maxOpenTraces: options.maxOpenTraces,
      maxSpansPerTrace: options.maxSpansPerTrace,
      maxOpenSpans: options.maxOpenSpans,
      onWarning: options.onWarning,
      onEpisode: (result, rollout) => this.traceFinished(result, rollout),
      // Large traces are mapped on the labelling threads (threads/trace-mapping.ts).
      mapTrace: traceMapper(() => this.threadMapper(), (event) => this.metrics.traceMappings.inc({ on: event })),
      onDropped: (traceId, reason) => {
        this.metrics.tracesEvicted.inc({ reason });
        // At shutdown the spans stay in the log, to be replayed at the next start.
        if (reason !== 'shutdown') this.write([{ t: 'evicted', trace: traceId }]);
      },
    });
  }

  /** Create the state, replaying the episode log when there is one. */
  static async start(options: ResolvedServeOptions): Promise<ParlService> {
    const service = new ParlService(options);
    if (options.logFile !== undefined) {
      const pending = new Map<string, PendingTrace>();
      service.log = await EpisodeLog.open(
        options.logFile,
        options.fsync,
        options.fsyncIntervalMs,
        (entry) => {
          service.replayed += 1;
          service.replay(entry, pending);
        },
        (lineNo, why) => options.onWarning(`episode log ${options.logFile} line ${lineNo} skipped: ${why}`),
        (what) => options.onWarning(`episode log ${options.logFile}: ${what}`),
      ).catch(async (err: unknown) => {
        await service.close();
        throw err;
      });
      // Traces acknowledged but not yet episodes: open again, as if their spans came now.
      for (const [traceId, p] of pending) {
        const request = readExportRequest({ resourceSpans: [{ scopeSpans: [{ spans: p.spans }] }] }, options.rolloutAttribute);
        service.intake.add({ reads: request.reads, rollouts: p.rollout === undefined ? {} : { [traceId]: p.rollout } });
      }
    }
    try {
      service.labellerOf = await createRecordsLabeller(options.labelThreads, options.maxQueuedBodies, options.maxQueuedBodyBytes, (reason) => service.metrics.bodiesShed.inc({ reason }));
    } catch (err) {
      await service.abandon();
      throw err;
    }
    return service;
  }

  private replay(entry: LogEntry, pending: Map<string, PendingTrace>): void {
    switch (entry.t) {
      case 'reward':
        this.store.putPosted(entry.id, JSON.stringify(entry.record));
        break;
      case 'spans':
        this.replaySpans(readExportRequest({ resourceSpans: [{ scopeSpans: [{ spans: entry.spans }] }] }, this.options.rolloutAttribute), entry.rollouts ?? {}, pending);
        break;
      case 'otlp': {
        const request = readExportRequest('protobuf' in entry ? decodeOtlpProtobuf(Buffer.from(entry.protobuf, 'base64')) : entry.request, this.options.rolloutAttribute);
        this.replaySpans(request, request.rollouts, pending);
        break;
      }
      case 'episode':
        pending.delete(entry.trace);
        this.store.put({ id: entry.trace, ...(entry.rollout === undefined ? {} : { rollout: entry.rollout }), record: entry.record, finding: entry.finding });
        break;
      case 'outcome': {
        const ep = this.store.get(entry.trace);
        if (ep !== undefined) this.store.put({ ...ep, labelled: entry.labelled });
        break;
      }
      case 'evicted':
        pending.delete(entry.trace);
        break;
    }
  }

  /** The spans of a logged request, added to the traces still open at the end of the log. */
  private replaySpans(request: OtlpExportRead, rollouts: Readonly<Record<string, string>>, pending: Map<string, PendingTrace>): void {
    request.reads.forEach((read, i) => {
      const traceId = read.traceId;
      if (traceId === undefined) return;
      let p = pending.get(traceId);
      if (p === undefined) {
        p = { spans: [], rollout: undefined };
        pending.set(traceId, p);
      }
      p.spans.push(request.spans[i] as Record<string, unknown>);
      p.rollout ??= rollouts[traceId];
    });
  }

  /** Append to the log (when there is one); a failed write is a warning. */
  private write(entries: readonly LogEntry[]): void {
    this.append(entries).catch((err: unknown) => this.options.onWarning(`episode log write failed: ${err instanceof Error ? err.message : String(err)}`));
  }

  /** Append to the log and wait for it (per the fsync policy); resolves at once without a log. */
  append(entries: readonly LogEntry[]): Promise<void> {
    return this.log === undefined ? Promise.resolve() : this.log.append(entries);
  }

  private count(record: Readonly<Record<string, unknown>>, finding: SerialCollapseFinding | undefined, source: EpisodeSource): void {
    this.liveStats.add(episodePoint(record, finding));
    this.metrics.episodes.inc({ source });
  }

  /**
   * Accept labelled records: those with an `id` are logged (and held for lookup) before this
   * resolves; every one counts on the dashboard.
   */
  async acceptLabelled(labelled: readonly Readonly<Record<string, unknown>>[], source: EpisodeSource): Promise<void> {
    const ids: { readonly id: string; readonly json: string }[] = [];
    let lines = '';
    for (let i = 0; i < labelled.length; i++) {
      const record = labelled[i] as Readonly<Record<string, unknown>>;
      const id = record['id'];
      if (typeof id !== 'string' && typeof id !== 'number') continue;
      const text = recordText(record, `record ${i + 1}`);
      ids.push({ id: String(id), json: text });
      if (this.log !== undefined) lines += rewardLogLine(String(id), text);
    }
    if (this.log !== undefined) await this.log.appendLines(lines);
    for (const e of ids) this.store.putPosted(e.id, e.json);
    for (const record of labelled) this.liveStats.add(episodePoint(record, undefined));
    if (labelled.length > 0) this.metrics.episodes.inc({ source }, labelled.length);
  }

  /** The labelling threads' `mapTraceTask`, once they run; undefined before, or with no threads. */
  private threadMapper(): ThreadMapper | undefined {
    const call = this.labellerOf?.callInBackground;
    if (call === undefined) return undefined;
    return (input, transfer, bytes) => call<TraceMappingOutput>('mapTraceTask', input, transfer, bytes);
  }

  /** Where `/v1/rewards` bodies are labelled (worker threads, or the event loop). */
  get labeller(): RecordsLabeller {
    if (this.labellerOf === undefined) throw new Error('the service is not started (ParlService.start)');
    return this.labellerOf;
  }

  /**
   * Accept a body labelled by {@link ParlService.labeller}: its records with an `id` are logged
   * (and held for lookup) before this resolves; every one counts on the dashboard. Records are
   * held and counted 2,048 at a time (`ACCEPT_SLICE`), the event loop served between slices, so a
   * body of a million small records never holds it for the time of all.
   */
  async acceptLabelledBody(body: LabelledBody, source: EpisodeSource, config?: ResolvedRewardConfig): Promise<void> {
    if (this.log !== undefined) await this.logLinesOf(body);
    // Each held record is its own string, not a view into the answer: a view would keep the whole
    // answer alive for as long as any one of its records is held (a batch whose other ids are
    // posted again would pin it), so memory would follow answers, not the episodes held. With the
    // records as posted and the config they were labelled with, the posted text is held (about a
    // third of the labelled one) and labelled again when read.
    const posted = config === undefined ? undefined : body.posted;
    const texts = Buffer.from(posted?.bytes.buffer ?? body.answer.buffer, posted?.bytes.byteOffset ?? body.answer.byteOffset, posted?.bytes.byteLength ?? body.answer.byteLength);
    const spans = posted?.spans ?? body.spans;
    for (let from = 0; from < body.ids.length; from += ACCEPT_SLICE) {
      if (from > 0) await yieldToEventLoop();
      for (let i = from; i < Math.min(body.ids.length, from + ACCEPT_SLICE); i++) {
        const text = texts.toString('utf8', spans[2 * i], spans[2 * i + 1]);
        // A posted NDJSON line is read trimmed (white space, and a byte order mark, around it).
        if (posted === undefined) this.store.putPosted(body.ids[i] as string, text);
        else this.store.putPosted(body.ids[i] as string, text.trim(), config);
      }
    }
    // The numbers and bytes of labelling/body-extras.ts: packed points, log lines.
    const n = packedPointCount(body.numbers);
    for (let from = 0; from < n; from += ACCEPT_SLICE) {
      if (from > 0) await yieldToEventLoop();
      const to = Math.min(n, from + ACCEPT_SLICE);
      this.liveStats.addMany(reusedPoints(body.numbers, from, to));
    }
    if (body.count > 0) this.metrics.episodes.inc({ source }, body.count);
  }

  /**
   * Log the lines of a labelled body's records with an id: its `extraBytes` when it came with
   * them, else made here from the answer's bytes (`RewardLogLines`, one reused buffer).
   */
  private async logLinesOf(body: LabelledBody): Promise<void> {
    const log = this.log as EpisodeLog;
    if (body.extraBytes.byteLength > 0 || body.ids.length === 0) return log.appendLines(body.extraBytes);
    const lines = this.rewardLogLines.make(body);
    try {
      await log.appendLines(lines.bytes);
    } finally {
      lines.release();
    }
  }

  /**
   * Accept the spans of one export request: logged, then added to their traces.
   *
   * @param body - the request as received (after gunzip): the log keeps it as it came, which
   *   replaying reads again
   * @param protobuf - whether `body` is protobuf
   */
  async acceptSpans(request: OtlpExportRead, body: Uint8Array, protobuf: boolean): Promise<void> {
    if (request.spans.length > 0 && this.log !== undefined) await this.log.appendLines(otlpLogLine(body, protobuf));
    this.metrics.spansReceived.inc(request.spans.length);
    this.metrics.spansRejected.inc(request.rejected);
    this.intake.add(request);
  }

  /**
   * Accept the spans of one export request read on a thread (see `readOtlpTask`): logged, then
   * added to their traces a slice at a time, the event loop served between slices; no trace is
   * finished until all are in.
   */
  async acceptSpanSlices(read: OtlpReadSlices): Promise<void> {
    if (read.spanCount > 0 && this.log !== undefined) await this.log.appendLines(read.logLine);
    this.metrics.spansReceived.inc(read.spanCount);
    this.metrics.spansRejected.inc(read.rejected);
    const release = this.intake.hold();
    try {
      for (const [i, slice] of read.slices.entries()) {
        if (i > 0) await new Promise((resolve) => setImmediate(resolve));
        this.intake.add({ reads: deserializeSlice(slice), rollouts: read.rollouts });
      }
    } finally {
      release();
    }
  }

  private traceFinished(result: TraceResult, rollout: string | undefined): void {
    const record = result.record as unknown as Readonly<Record<string, unknown>>;
    const episode: StoredEpisode = { id: result.traceId, ...(rollout === undefined ? {} : { rollout }), record, finding: result.finding };
    this.write([{ t: 'episode', trace: result.traceId, ...(rollout === undefined ? {} : { rollout }), record, finding: result.finding }]);
    this.store.put(episode);
    this.count(record, result.finding, 'traces');
  }

  /**
   * The outcome of a known episode: its record with the outcome fields, labelled with `config`,
   * logged, and answered.
   *
   * @returns undefined for an unknown id
   * @throws {@link @parl/core!ParlInputError} for a bad outcome
   */
  async outcome(id: string, outcome: Readonly<Record<string, unknown>>, config: RewardConfig | ResolvedRewardConfig): Promise<Readonly<Record<string, unknown>> | undefined> {
    const episode = this.store.get(id);
    if (episode === undefined) return undefined;
    const labelled = labelReward({ ...episode.record, ...outcome }, config, `episode ${episode.id}`) as unknown as Readonly<Record<string, unknown>>;
    await this.append([{ t: 'outcome', trace: episode.id, labelled }]);
    this.store.put({ ...episode, labelled });
    this.count(labelled, episode.finding, 'outcome');
    return labelled;
  }

  /** Flush and close the log, and drop open traces (their spans are in the log). */
  async close(): Promise<void> {
    this.intake.close('the server stopped before the trace finished (its spans stay in the episode log and are replayed at start)');
    await this.labellerOf?.close();
    await this.log?.close();
  }

  /** Close after a start that failed: as {@link ParlService.close}, and a log file this start created, still empty of entries, is removed. */
  async abandon(): Promise<void> {
    this.intake.close('the server did not start');
    await this.labellerOf?.close();
    await this.log?.abandon();
  }
}
