/**
 * Checking a call's arguments against a tool's schema (and an MCP result against its output
 * schema): the schema's own validator when it has
 * one (a zod schema, through the AI SDK), else its JSON schema through Ajv (draft 2020-12, the
 * dialect MCP servers write). A failure is the text the model reads.
 *
 * @module
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JSONSchema7, Schema } from 'ai';
import type { CheckedInput } from './swarm-tool.js';

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });

/** The check of a tool's arguments; a JSON schema Ajv cannot compile is checked only as an object. */
export function schemaCheck(toolName: string, schema: Schema<unknown>, json: JSONSchema7): (input: unknown) => Promise<CheckedInput> | CheckedInput {
  const failed = (why: string): CheckedInput => ({ ok: false, error: `error: ${toolName}'s arguments do not match its schema: ${why}` });
  const own = schema.validate;
  if (own !== undefined) {
    return async (input) => {
      const result = await own(input);
      return result.success ? { ok: true, value: result.value } : failed(result.error.message.replace(/\s+/g, ' ').slice(0, 500));
    };
  }
  const { $schema: _dialect, ...rest } = json as JSONSchema7 & { $schema?: unknown };
  let validate: ((input: unknown) => boolean) & { errors?: unknown } | undefined;
  try {
    validate = ajv.compile(rest as object);
  } catch {
    validate = undefined;
  }
  return (input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return failed('a JSON object of arguments is expected');
    if (validate === undefined || validate(input)) return { ok: true, value: input };
    return failed(ajv.errorsText(validate.errors as Parameters<typeof ajv.errorsText>[0], { dataVar: 'arguments' }));
  };
}

/**
 * The check of a tool's result against its own output schema (an MCP tool's `outputSchema`): the
 * error text the model reads when the structured result is missing or breaks it, else undefined.
 * A schema Ajv cannot compile checks only that a structured result is there.
 */
export function outputCheck(toolName: string, json: JSONSchema7): (structured: unknown) => string | undefined {
  const { $schema: _dialect, ...rest } = json as JSONSchema7 & { $schema?: unknown };
  let validate: ((value: unknown) => boolean) & { errors?: unknown } | undefined;
  try {
    validate = ajv.compile(rest as object);
  } catch {
    validate = undefined;
  }
  return (structured) => {
    if (structured === undefined || structured === null) return `${toolName}'s result breaks its own outputSchema: it has no structured content`;
    if (validate === undefined || validate(structured)) return undefined;
    return `${toolName}'s result breaks its own outputSchema: ${ajv.errorsText(validate.errors as Parameters<typeof ajv.errorsText>[0], { dataVar: 'result' })}`;
  };
}
