/**
 * An OpenTelemetry Node tracer provider (AsyncLocalStorage context, so nested calls get their
 * parents) exporting in memory; spans are serialised by the real OTLP JSON serializer.
 */
import { trace } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

const exporter = new InMemorySpanExporter();
let provider: NodeTracerProvider | undefined;

/** Register the provider once (global tracer provider and context manager). */
export function otelProvider(): NodeTracerProvider {
  if (provider === undefined) {
    provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
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
