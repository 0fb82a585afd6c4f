/**
 * LangSmith's OpenTelemetry mode, set up as its docs say (`LANGSMITH_TRACING=true`,
 * `LANGSMITH_OTEL_ENABLED=true`, `initializeOTEL()` from `langsmith/experimental/otel/setup`),
 * with `LANGSMITH_ENDPOINT` at the loopback API, so that the SDK's own
 * `LangSmithOTLPTraceExporter` posts OTLP/HTTP protobuf to `<endpoint>/otel/v1/traces` there.
 * Each LangGraph scenario runs twice: LangGraph alone (the SDK exports nothing: see the fixtures'
 * README), and inside a `traceable` function (the SDK exports that function's span only). Then
 * the same scenarios as agents made of `traceable` functions only (./traceable-scenarios.ts),
 * which the mode exports span by span. `initializeOTEL`
 * registers the global tracer provider, so this generator runs in a process of its own.
 */
import { awaitAllCallbacks } from '@langchain/core/callbacks/promises';
import { RunTree } from 'langsmith/run_trees';
import { traceable } from 'langsmith/traceable';
import { initializeOTEL } from 'langsmith/experimental/otel/setup';
import { langGraphScenarios } from './langgraph-scenarios.js';
import { TRACEABLE_SCENARIOS } from './traceable-scenarios.js';
import { startLangSmithLoopback, type LangSmithLoopback } from './langsmith-loopback.js';
import { writeFixtureBytes } from './write-fixture.js';

/** Length-prefixed requests (4-byte big-endian length, then the request), as the OpenTelemetry Collector's file exporter writes them. */
function lengthPrefixed(requests: readonly Buffer[]): Buffer {
  return Buffer.concat(requests.flatMap((r) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(r.length);
    return [length, r];
  }));
}

async function flush(api: LangSmithLoopback, flushSpans: () => Promise<void>): Promise<Buffer[]> {
  await awaitAllCallbacks();
  await RunTree.getSharedClient().awaitPendingTraceBatches();
  await flushSpans();
  const runs = api.take();
  if (runs.length > 0) throw new Error(`OpenTelemetry mode posted ${runs.length} LangSmith run operations; expected spans only`);
  return api.takeOtlp();
}

/** Every scenario, under langsmith-otel/ (only those with spans to write). */
export async function generateLangSmithOtel(): Promise<void> {
  const api = await startLangSmithLoopback();
  process.env['LANGSMITH_TRACING'] = 'true';
  process.env['LANGSMITH_OTEL_ENABLED'] = 'true';
  process.env['LANGSMITH_ENDPOINT'] = api.url;
  process.env['LANGSMITH_API_KEY'] = 'lsv2_loopback_dummy_key';
  process.env['LANGSMITH_PROJECT'] = 'parl-fixtures';
  // The exporter's own hook: exception stack traces name this machine's paths, the message stays.
  const { DEFAULT_LANGSMITH_SPAN_PROCESSOR } = initializeOTEL({
    exporterConfig: {
      transformExportedSpan: (span) => {
        for (const event of span.events) delete event.attributes?.['exception.stacktrace'];
        return span;
      },
    },
  });
  const flushSpans = () => DEFAULT_LANGSMITH_SPAN_PROCESSOR.forceFlush();
  try {
    for (const scenario of langGraphScenarios()) {
      await scenario.run({}).catch((err: Error) => console.error(`  (run ended in error as scripted: ${err.message})`));
      const alone = await flush(api, flushSpans);
      console.error(`  ${scenario.name}, LangGraph alone: ${alone.length} OTLP request(s)`);
      if (alone.length > 0) writeFixtureBytes('langsmith-otel', `${scenario.name}-langgraph-alone.binpb`, lengthPrefixed(alone));
    }
    for (const scenario of langGraphScenarios()) {
      const app = traceable((question: string) => scenario.run({}).then(() => question), { name: 'app' });
      await app('go').catch((err: Error) => console.error(`  (run ended in error as scripted: ${err.message})`));
      const wrapped = await flush(api, flushSpans);
      console.error(`  ${scenario.name}, inside traceable: ${wrapped.length} OTLP request(s), ${wrapped.reduce((n, b) => n + b.length, 0)} bytes`);
      if (wrapped.length > 0) writeFixtureBytes('langsmith-otel', `${scenario.name}-in-traceable.binpb`, lengthPrefixed(wrapped));
    }
    for (const [name, run] of Object.entries(TRACEABLE_SCENARIOS)) {
      await run().catch((err: Error) => console.error(`  (run ended in error as scripted: ${err.message})`));
      const spans = await flush(api, flushSpans);
      console.error(`  ${name}, traceable agents: ${spans.length} OTLP request(s), ${spans.reduce((n, b) => n + b.length, 0)} bytes`);
      writeFixtureBytes('langsmith-otel', `${name}-traceable-agents.binpb`, lengthPrefixed(spans));
    }
  } finally {
    await DEFAULT_LANGSMITH_SPAN_PROCESSOR.shutdown();
    await api.close();
  }
}
