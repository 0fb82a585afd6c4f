/**
 * Capturing the episodes' spans as OTLP JSON (one export request per episode), for `--spans FILE`
 * (which `parl trace` reads) and for the evaluation's serial-collapse findings. The OpenTelemetry
 * SDK (`@opentelemetry/sdk-trace-base`) and the OTLP JSON serializer
 * (`@opentelemetry/otlp-transformer`) are loaded only here; the runtime itself uses
 * `@opentelemetry/api` alone.
 *
 * @module
 */
import { appendFile, rename, rm, stat } from 'node:fs/promises';
import { ParlInputError } from '@parl/core';
import { appendedLines, openLineAppender, partialPathOf, type AppendedLine } from '@parl/io';
import type { Tracer } from '@opentelemetry/api';
import { swarmSpanResource } from './span-resource.js';

/** A tracer whose finished spans are taken as OTLP JSON. */
export interface SpanCapture {
  /** The tracer to give the episodes. */
  readonly tracer: Tracer;
  /** The spans finished since the last take, as one OTLP JSON export request; undefined when none. */
  take(): string | undefined;
}

/** A new span capture (the spans are held until taken), its resource naming the service (`swarmSpanResource`). */
export async function openSpanCapture(): Promise<SpanCapture> {
  const [{ BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor }, { JsonTraceSerializer }, resource] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/otlp-transformer'),
    swarmSpanResource(),
  ]);
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(exporter)] });
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

/** What an existing `--spans` file must be, in words. */
export const SPANS_FILE_KIND = 'a spans file (OTLP JSON export requests, one per line)';

/** Every spans line starts so: how a line cut short is told apart from foreign text. */
const SPANS_LINE_START = '{"resourceSpans":';

function spansLineProblem(text: string | undefined, lineNo: number): string | undefined {
  if (text === undefined) return `line ${lineNo} is not UTF-8 text`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `line ${lineNo} is not JSON`;
  }
  const v = value as { resourceSpans?: unknown } | null;
  return typeof v === 'object' && v !== null && Array.isArray(v.resourceSpans) ? undefined : `line ${lineNo} is not an OTLP export request (no resourceSpans)`;
}

/**
 * Whether the file at `path` is a spans file, judged by its complete lines: undefined when it is,
 * else why not. A last line cut short by a crash counts as one of its own when it starts as a
 * spans line does.
 */
export async function recogniseSpansFile(path: string): Promise<string | undefined> {
  return (await scanSpansFile(path)).problem;
}

async function scanSpansFile(path: string): Promise<{ problem?: string; torn?: AppendedLine }> {
  for await (const l of appendedLines(path, SPANS_LINE_START)) {
    if (!l.complete) return l.torn ? { torn: l } : { problem: `line ${l.lineNo} is not an OTLP export request` };
    if (l.text?.trim() === '') continue;
    const problem = spansLineProblem(l.text, l.lineNo);
    if (problem !== undefined) return { problem };
  }
  return {};
}

/**
 * Spans written to a file, one export request per line, appended to `<path>.partial` as each
 * episode ends; the file appears under its name when committed, and an interrupted run's partial
 * file is resumed by the next.
 */
export interface SpansFile extends SpanCapture {
  /** The spans file. */
  readonly path: string;
  /** Append the spans finished since the last flush as one line. */
  flush(): Promise<void>;
  /** Append spans captured elsewhere (a worker's), one OTLP JSON export request, as one line. */
  append(request: string): Promise<void>;
  /** Rename the partial file into place (kept as it is when nothing was appended and the file exists). */
  commit(): Promise<void>;
  /** Remove the partial file (a failed run that cannot be resumed). */
  discard(): Promise<void>;
  /** Empty the partial file: a `--restart` opened it as it was, and starts over once its first new line is written. */
  startOver(): Promise<void>;
}

/** How to open a spans file. */
export interface OpenSpansFileOptions {
  /** Keep the spans of `<path>.partial` and append to them (a resumed run); else it starts empty. */
  readonly resume?: boolean;
  /** The flag named in errors (default `--spans`). */
  readonly flag?: string;
}

/**
 * Open a spans file at `path` (written as `path.partial` until {@link SpansFile.commit}). A partial
 * file that is not a spans file is refused; with `resume`, a last line a crash left cut short is
 * cut off before anything is appended.
 *
 * @throws {@link @parl/core!ParlInputError} naming the flag when `<path>.partial` holds something else
 */
export async function openSpansFile(path: string, open: OpenSpansFileOptions = {}): Promise<SpansFile> {
  const capture = await openSpanCapture();
  const partial = partialPathOf(path);
  const flag = open.flag ?? '--spans';
  const scan = await scanSpansFile(partial);
  if (scan.problem !== undefined) {
    throw new ParlInputError(flag, path, `a new file or ${SPANS_FILE_KIND}, which ${partial} is not (${scan.problem}): parl never replaces a file it did not write; choose another path or move it away`, undefined, 'PARL_ERR_CONFLICT');
  }
  let appender = await openLineAppender(partial, { keep: open.resume === true, torn: scan.torn });
  let appended = false;
  const add = async (request: string): Promise<void> => {
    await appender.append(request);
    appended = true;
  };
  return {
    ...capture,
    path,
    async flush() {
      const json = capture.take();
      if (json !== undefined) await add(json);
    },
    append: add,
    async commit() {
      await appendFile(partial, ''); // a resumed run's partial file, kept lazily, exists from here
      const kept = (await stat(partial)).size > 0 || appended;
      const existing = await stat(path).then(() => true, () => false);
      if (kept || !existing) await rename(partial, path);
      else await rm(partial, { force: true });
    },
    discard: () => rm(partial, { force: true }),
    async startOver() {
      appender = await openLineAppender(partial, { keep: false });
      appended = false;
    },
  };
}
