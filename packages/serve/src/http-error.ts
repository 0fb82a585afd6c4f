/**
 * Errors that carry their HTTP status, answered as `{"error": message}`.
 *
 * @module
 */

/** An error with the HTTP status it is answered with. */
export interface HttpError extends Error {
  /** The status code. */
  readonly statusCode: number;
}

/** An {@link HttpError}. */
export function httpError(statusCode: number, message: string): HttpError {
  return Object.assign(new Error(message), { statusCode });
}
