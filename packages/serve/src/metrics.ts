/**
 * The Prometheus metrics of one server (prom-client, on a registry of its own so that several
 * servers in one process do not mix), served at `/metrics`.
 *
 * @module
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { LogStats } from './episodes/log-stats.js';

/** What the gauges read when `/metrics` is scraped. */
export interface MetricSources {
  /** Unfinished traces held. */
  readonly openTraces: () => number;
  /** Spans held over all unfinished traces. */
  readonly openSpans: () => number;
  /** Episodes held in memory. */
  readonly episodesInMemory: () => number;
  /** The episode log's figures; undefined without a log. */
  readonly log: () => LogStats | undefined;
  /** Bytes waiting to be sent over all dashboard event streams. */
  readonly streamBufferedBytes: () => number;
}

/** The server's metrics. */
export class ServeMetrics {
  /** The registry `/metrics` serialises. */
  readonly registry = new Registry();
  /** Episodes accepted, by source (`rewards`, `get_reward`, `traces`, `outcome`). */
  readonly episodes: Counter<'source'>;
  /** Records labelled, by endpoint. */
  readonly recordsLabelled: Counter<'endpoint'>;
  /** OTLP spans received (read or not). */
  readonly spansReceived: Counter;
  /** OTLP spans rejected (unreadable). */
  readonly spansRejected: Counter;
  /** Unfinished traces evicted, by reason (`timeout`, `capacity`, `trace-spans`, `open-spans`, `unmappable`, `shutdown`). */
  readonly tracesEvicted: Counter<'reason'>;
  /**
   * Dashboard event streams disconnected for falling behind, by the bound they passed (`stream`:
   * maxStreamBufferBytes; `total`: maxStreamBufferTotalBytes, the streams furthest behind first).
   */
  readonly streamsDropped: Counter<'reason'>;
  /**
   * Bodies refused with `503` because the labelling threads' queue was full — `/v1/rewards` bodies,
   * and `/get_reward` and `/v1/traces` bodies large enough to be read on a thread — by the bound
   * that refused them (`bodies`: maxQueuedBodies; `bytes`: maxQueuedBodyBytes).
   */
  readonly bodiesShed: Counter<'reason'>;
  /**
   * Finished traces mapped, by where: `event-loop` (light ones, or no threads), `thread`; `wait`
   * counts the times a heavy one found the threads' queue full and waited to ask again.
   */
  readonly traceMappings: Counter<'on'>;
  /** Requests, by route and status. */
  readonly requests: Counter<'route' | 'status'>;
  /** Request duration in seconds, by route. */
  readonly duration: Histogram<'route'>;

  /** @param sources - what the gauges read */
  constructor(sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.episodes = new Counter({ name: 'parl_episodes_total', help: 'Episodes accepted, by source', labelNames: ['source'], registers });
    this.recordsLabelled = new Counter({ name: 'parl_records_labelled_total', help: 'Records labelled with the PARL reward, by endpoint', labelNames: ['endpoint'], registers });
    this.spansReceived = new Counter({ name: 'parl_spans_received_total', help: 'OTLP spans received', registers });
    this.spansRejected = new Counter({ name: 'parl_spans_rejected_total', help: 'OTLP spans that could not be read', registers });
    this.tracesEvicted = new Counter({ name: 'parl_traces_evicted_total', help: 'Unfinished traces dropped without becoming episodes, by reason', labelNames: ['reason'], registers });
    this.streamsDropped = new Counter({
      name: 'parl_event_streams_dropped_total',
      help: 'Dashboard event streams disconnected for falling behind, by the bound passed (stream: maxStreamBufferBytes; total: maxStreamBufferTotalBytes)',
      labelNames: ['reason'],
      registers,
    });
    this.bodiesShed = new Counter({ name: 'parl_bodies_shed_total', help: 'Bodies refused with 503 before labelling, by the bound that refused them', labelNames: ['reason'], registers });
    this.traceMappings = new Counter({ name: 'parl_trace_mappings_total', help: 'Finished traces mapped, by where (event-loop, thread), and waits for a full thread queue (wait)', labelNames: ['on'], registers });
    this.requests = new Counter({ name: 'parl_http_requests_total', help: 'HTTP requests answered, by route and status', labelNames: ['route', 'status'], registers });
    this.duration = new Histogram({
      name: 'parl_http_request_duration_seconds',
      help: 'HTTP request duration, by route',
      labelNames: ['route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    new Gauge({ name: 'parl_open_traces', help: 'Unfinished traces held in memory', registers, collect() { this.set(sources.openTraces()); } });
    new Gauge({ name: 'parl_open_spans', help: 'Spans of unfinished traces held in memory', registers, collect() { this.set(sources.openSpans()); } });
    new Gauge({ name: 'parl_event_stream_buffered_bytes', help: 'Bytes waiting to be sent over all dashboard event streams (at most maxStreamBufferTotalBytes)', registers, collect() { this.set(sources.streamBufferedBytes()); } });
    new Gauge({ name: 'parl_episodes_in_memory', help: 'Episodes held in memory for lookup', registers, collect() { this.set(sources.episodesInMemory()); } });
    new Gauge({ name: 'parl_episode_log_bytes', help: 'Bytes appended to the episode log since start', registers, collect() { this.set(sources.log()?.bytes ?? 0); } });
    new Gauge({ name: 'parl_episode_log_failed_writes', help: 'Episode log writes that failed and were cut back off the file since start', registers, collect() { this.set(sources.log()?.failedWrites ?? 0); } });
    new Gauge({ name: 'parl_episode_log_fsyncs', help: 'fdatasync calls on the episode log since start', registers, collect() { this.set(sources.log()?.fsyncs ?? 0); } });
  }
}
