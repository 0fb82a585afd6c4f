/**
 * An OpenTelemetry Node tracer provider (AsyncLocalStorage context, so nested calls get their
 * parents) exporting in memory; spans are serialised by the real OTLP JSON serializer.
 */
import { isOpenInferenceSpan, OpenInferenceSimpleSpanProcessor } from '@arizeai/openinference-vercel';
import { trace, type Context } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type Span, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

const exporter = new InMemorySpanExporter();
const openInferenceExporter = new InMemorySpanExporter();
let provider: NodeTracerProvider | undefined;
let openInferenceOn = false;

/**
 * `@arizeai/openinference-vercel`'s processor (as its README sets it up: only OpenInference spans
 * exported), fed only while {@link captureOpenInference} runs, so that it rewrites no other
 * fixture's spans.
 */
class WhileOpenInference implements SpanProcessor {
  private readonly inner = new OpenInferenceSimpleSpanProcessor({ exporter: openInferenceExporter, spanFilter: isOpenInferenceSpan });
  onStart(span: Span, ctx: Context): void {
    if (openInferenceOn) this.inner.onStart(span, ctx);
  }
  onEnd(span: ReadableSpan): void {
    if (openInferenceOn) this.inner.onEnd(span);
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

/** Register the provider once (global tracer provider and context manager). */
export function otelProvider(): NodeTracerProvider {
  if (provider === undefined) {
    provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter), new WhileOpenInference()] });
    provider.register();
  }
  return provider;
}

/** A tracer of the registered provider. */
export function otelTracer(name: string) {
  otelProvider();
  return trace.getTracer(name);
}

/** Run `fn` and return the spans it finished as one OTLP JSON export request (one JSONL line). */
export async function captureOtlp(fn: () => Promise<unknown>): Promise<unknown[]> {
  otelProvider();
  exporter.reset();
  try {
    await fn();
  } catch (err) {
    console.error(`  (run ended in error as scripted: ${(err as Error).message})`);
  }
  await new Promise((r) => setTimeout(r, 20));
  const spans = exporter.getFinishedSpans();
  exporter.reset();
  return [JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans)))];
}

/**
 * Run `fn` with the OpenInference processor on and return the spans it exported (OpenInference
 * spans only) as one OTLP JSON export request.
 */
export async function captureOpenInference(fn: () => Promise<unknown>): Promise<unknown[]> {
  otelProvider();
  openInferenceExporter.reset();
  openInferenceOn = true;
  try {
    await captureOtlp(fn);
  } finally {
    openInferenceOn = false;
  }
  const spans = openInferenceExporter.getFinishedSpans();
  openInferenceExporter.reset();
  return [JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans)))];
}
