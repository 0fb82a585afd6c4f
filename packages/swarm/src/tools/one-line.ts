/**
 * Errors shown as one line (to the model in a tool result, to the user in a provider or input
 * error): whitespace runs made one space, and at most {@link ONE_LINE_CAP} characters.
 *
 * @module
 */

/** The most characters a one-line error keeps (then `…`). */
export const ONE_LINE_CAP = 300;

/** `value` (an error as `Name: message`, else its text) on one line, cut at {@link ONE_LINE_CAP} characters. */
export function oneLine(value: unknown): string {
  const text = value instanceof Error ? `${value.name}: ${value.message}` : String(value);
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > ONE_LINE_CAP ? `${line.slice(0, ONE_LINE_CAP)}…` : line;
}
