/**
 * Checking a string-argument tool's arguments. A bad call is the model's own error: the message
 * goes back to it as the tool result, never as an exception.
 *
 * @module
 */
import type { ToolSpec } from './tool-spec.js';

/** The call's arguments, or the error text to return to the model. */
export type ToolArgs = { readonly ok: true; readonly args: Readonly<Record<string, string>> } | { readonly ok: false; readonly error: string };

/** Check that `input` has every argument of `spec` as a string. */
export function toolArgsOf(input: unknown, spec: ToolSpec): ToolArgs {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, error: `error: ${spec.name} takes a JSON object of arguments (${Object.keys(spec.parameters).join(', ')})` };
  }
  const args: Record<string, string> = {};
  for (const name of Object.keys(spec.parameters)) {
    const value = (input as Record<string, unknown>)[name];
    if (typeof value !== 'string') {
      return { ok: false, error: `error: ${spec.name} needs the argument "${name}" as a string, got ${value === undefined ? 'nothing' : JSON.stringify(value)}` };
    }
    args[name] = value;
  }
  return { ok: true, args };
}
