/**
 * A tool whose arguments are all required strings (the orchestrator's tools, the corpus tools),
 * and the JSON schema the model sees for it.
 *
 * @module
 */
import type { JSONSchema7 } from 'ai';

/** A tool as the model sees it: a name, a description and required string arguments. */
export interface ToolSpec {
  /** Tool name. */
  readonly name: string;
  /** What it does, for the model. */
  readonly description: string;
  /** Its string arguments, each required: name → description. */
  readonly parameters: Readonly<Record<string, string>>;
}

/** The JSON schema of a spec's arguments: an object of required strings, nothing else. */
export function stringArgumentsSchema(spec: ToolSpec): JSONSchema7 {
  const properties: Record<string, JSONSchema7> = {};
  for (const [name, description] of Object.entries(spec.parameters)) properties[name] = { type: 'string', description };
  return { type: 'object', properties, required: Object.keys(spec.parameters), additionalProperties: false };
}
