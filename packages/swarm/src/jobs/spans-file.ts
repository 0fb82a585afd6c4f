/**
 * Capturing the episodes' spans as OTLP JSON (one export request per episode), for `--spans FILE`
 * (which `parl trace` reads) and for the evaluation's serial-collapse findings. The OpenTelemetry
 * SDK (`@opentelemetry/sdk-trace-base`) and the OTLP JSON serializer
 * (`@opentelemetry/otlp-transformer`) are loaded only here; the runtime itself uses
 * `@opentelemetry/api` alone.
 *
 * @module
 */
import { appendFile, rename, rm } from 'node:fs/promises';
import type { Tracer } from '@opentelemetry/api';

/** A tracer whose finished spans are taken as OTLP JSON. */
export interface SpanCapture {
  /** The tracer to give the episodes. */
  readonly tracer: Tracer;
  /** The spans finished since the last take, as one OTLP JSON export request; undefined when none. */
  take(): string | undefined;
}

/** A new span capture (the spans are held until taken). */
export async function openSpanCapture(): Promise<SpanCapture> {
  const [{ BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor }, { JsonTraceSerializer }] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/otlp-transformer'),
  ]);
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return {
    tracer: provider.getTracer('@parl/swarm'),
    take() {
      const spans = exporter.getFinishedSpans();
      if (spans.length === 0) return undefined;
      exporter.reset();
      return new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans));
    },
  };
}

/** Spans written to a file, one export request per line; the file appears under its name only when committed. */
export interface SpansFile extends SpanCapture {
  /** Append the spans finished since the last flush as one line. */
  flush(): Promise<void>;
  /** Append spans captured elsewhere (a worker's), one OTLP JSON export request, as one line. */
  append(request: string): Promise<void>;
  /** Rename the file into place. */
  commit(): Promise<void>;
  /** Remove the temporary file (a failed run). */
  discard(): Promise<void>;
}

/** Open a spans file at `path` (written as `path.<pid>.tmp` until {@link SpansFile.commit}). */
export async function openSpansFile(path: string): Promise<SpansFile> {
  const capture = await openSpanCapture();
  const tmp = `${path}.${process.pid}.tmp`;
  await appendFile(tmp, '');
  return {
    ...capture,
    async flush() {
      const json = capture.take();
      if (json !== undefined) await appendFile(tmp, `${json}\n`);
    },
    async append(request) {
      await appendFile(tmp, `${request}\n`);
    },
    commit: () => rename(tmp, path),
    discard: () => rm(tmp, { force: true }),
  };
}
