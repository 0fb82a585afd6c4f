/**
 * The one error a bad chat-completions request gets: the field, the value and what was expected,
 * answered as HTTP 400 in OpenAI's error shape.
 *
 * @module
 */

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** A request field with a value the endpoint does not take. */
export class ChatRequestError extends Error {
  override readonly name = 'ChatRequestError';

  constructor(
    /** Path of the field in the request body, e.g. `messages[2].role`. */
    readonly field: string,
    /** The value received. */
    readonly value: unknown,
    /** What the field takes. */
    readonly expected: string,
  ) {
    super(`${field}: got ${shown(value)}, expected ${expected}`);
  }
}
