/**
 * LangGraph's scenarios (./langgraph-scenarios.ts) traced by OpenInference
 * (@arizeai/openinference-instrumentation-langchain) on an OpenTelemetry tracer provider,
 * serialised to OTLP JSON.
 */
import { LangChainInstrumentation } from '@arizeai/openinference-instrumentation-langchain';
import * as CallbackManagerModule from '@langchain/core/callbacks/manager';
import { langGraphScenarios } from './langgraph-scenarios.js';
import { captureOtlp, otelProvider } from './otel-capture.js';
import { writeFixture } from './write-fixture.js';

/** Every scenario, under langchain/. */
export async function generateLangChain(): Promise<void> {
  otelProvider();
  const instrumentation = new LangChainInstrumentation();
  instrumentation.manuallyInstrument(CallbackManagerModule);
  for (const scenario of langGraphScenarios()) writeFixture('langchain', scenario.name, await captureOtlp(() => scenario.run({})));
}
