/**
 * Which version of the OpenTelemetry GenAI semantic conventions the swarm's spans follow, chosen
 * as the conventions ask of an instrumentation that already emits an older version: keep it by
 * default, and emit the latest experimental version instead when `OTEL_SEMCONV_STABILITY_OPT_IN`
 * (a comma-separated list) holds `gen_ai_latest_experimental`.
 *
 * - `default`: what the swarm has emitted since it first emitted spans (semantic conventions
 *   1.37–1.41): `invoke_agent`, `chat` and `execute_tool` spans, `create_subagent` an
 *   `execute_tool` span like any tool call.
 * - `latest`: the GenAI conventions of their own repository (`open-telemetry/semantic-conventions-genai`
 *   v0.1.0): the same, but a `create_subagent` call is a `create_agent {name}` span (operation
 *   `create_agent`, the sub-agent's name, its model and provider), not a tool call.
 *
 * `parl trace` (`@parl/traces`) reads both.
 *
 * @module
 */

/** The `OTEL_SEMCONV_STABILITY_OPT_IN` value that asks for the latest experimental GenAI conventions. */
export const GEN_AI_LATEST_EXPERIMENTAL = 'gen_ai_latest_experimental';

/** Which GenAI conventions the spans follow: the swarm's default, or the latest experimental. */
export type GenAiConventions = 'default' | 'latest';

/** The conventions `env` asks for (`OTEL_SEMCONV_STABILITY_OPT_IN`; default `default`). */
export function genAiConventionsOf(env: Readonly<Record<string, string | undefined>> = process.env): GenAiConventions {
  const optIn = env['OTEL_SEMCONV_STABILITY_OPT_IN'] ?? '';
  return optIn.split(',').some((value) => value.trim() === GEN_AI_LATEST_EXPERIMENTAL) ? 'latest' : 'default';
}
