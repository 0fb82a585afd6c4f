// An agent app traced with the OpenTelemetry SDK, exporting its spans over OTLP/HTTP to
// `parl serve`, then asking the server for the episode's PARL reward once the outcome is known.
//
//   parl serve --log episodes.jsonl &                      # http://127.0.0.1:4318
//   node examples/serve-agent-app.mjs [rollout-id]
//
// Environment (the standard OpenTelemetry variables, and the server for the outcome):
//   OTEL_EXPORTER_OTLP_TRACES_ENDPOINT   default http://127.0.0.1:4318/v1/traces
//   OTEL_EXPORTER_OTLP_TRACES_PROTOCOL   http/protobuf (default) or http/json
//   PARL_SERVE_URL                       default: the endpoint's origin
//   PARL_SERVE_TOKEN                     the bearer token, when the server has one
//
// The orchestrator ("boss") plans with one LLM call, runs three researcher sub-agents in parallel
// (each makes two LLM calls), then writes the answer. Its root span carries `parl.rollout_id`,
// the id the trainer uses for this rollout. Prints one JSON line: the rollout id, the trace id,
// the spans exported and the labelled record the server answered.
import { context, trace } from '@opentelemetry/api';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

const endpoint = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? 'http://127.0.0.1:4318/v1/traces';
const protocol = process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? 'http/protobuf';
const serveUrl = process.env.PARL_SERVE_URL ?? new URL(endpoint).origin;
const token = process.env.PARL_SERVE_TOKEN;
const rolloutId = process.argv[2] ?? `rollout-${Date.now()}`;
const auth = token ? { authorization: `Bearer ${token}` } : {};

if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
  console.error(`OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be http/protobuf or http/json, got ${protocol}`);
  process.exit(2);
}

// The real OTLP exporters of the OpenTelemetry JS SDK.
const Exporter = protocol === 'http/json' ? OtlpJsonExporter : OtlpProtoExporter;
let exported = 0;
const exporter = new Exporter({ url: endpoint, headers: auth });
const counting = {
  export(spans, done) {
    exported += spans.length;
    exporter.export(spans, done);
  },
  shutdown: () => exporter.shutdown(),
  forceFlush: () => exporter.forceFlush(),
};
const provider = new BasicTracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'parl-agent-app-example' }),
  spanProcessors: [new BatchSpanProcessor(counting, { scheduledDelayMillis: 50 })],
});
const tracer = provider.getTracer('parl-agent-app-example');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One LLM call (a `chat` span), faked with a short wait. */
async function chat(ctx, prompt) {
  const span = tracer.startSpan('chat', { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'example-model' } }, ctx);
  await sleep(5 + prompt.length % 5);
  span.end();
  return `answer to ${prompt}`;
}

/** A sub-agent: an `invoke_agent` span with its own LLM calls. */
async function subAgent(ctx, name, task) {
  const span = tracer.startSpan(`invoke_agent ${name}`, { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': name } }, ctx);
  const inner = trace.setSpan(ctx, span);
  const notes = await chat(inner, `research ${task}`);
  const summary = await chat(inner, `summarise ${notes}`);
  span.end();
  return summary;
}

/** The orchestrator: plan, fan out to three sub-agents at once, then answer. */
async function orchestrator(question) {
  const root = tracer.startSpan('invoke_agent boss', {
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'boss', 'parl.rollout_id': rolloutId },
  });
  const ctx = trace.setSpan(context.active(), root);
  await chat(ctx, `plan ${question}`);
  const findings = await Promise.all(['prices', 'reviews', 'specs'].map((topic, i) => subAgent(ctx, `researcher-${i + 1}`, topic)));
  const answer = await chat(ctx, `write up ${findings.join('; ')}`);
  root.end();
  return { traceId: root.spanContext().traceId, answer };
}

async function call(method, path, body) {
  const res = await fetch(`${serveUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...auth },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

const { traceId } = await orchestrator('which laptop to buy');
await provider.shutdown(); // flushes: every span is exported before this resolves

// The trace becomes an episode once its root span ended and the server's quiet period passed.
for (let i = 0; ; i++) {
  const { status } = await call('GET', `/v1/episodes/${encodeURIComponent(rolloutId)}`);
  if (status === 200) break;
  if (status !== 404 || i >= 600) throw new Error(`episode ${rolloutId}: GET answered ${status}`);
  await sleep(50);
}

// The outcome, as the trainer's verifier judged it: the reward comes back labelled by the server.
const outcome = { success: true, quality: 0.9, training_step: 1500 };
const labelled = await call('POST', `/v1/episodes/${encodeURIComponent(rolloutId)}/outcome`, outcome);
if (labelled.status !== 200) throw new Error(`outcome of ${rolloutId}: ${labelled.status} ${JSON.stringify(labelled.body)}`);
console.log(JSON.stringify({ rollout: rolloutId, traceId, protocol, spans: exported, outcome, labelled: labelled.body }));
