/**
 * Which addresses only this machine reaches: a server listening on any other needs a token.
 *
 * @module
 */

/**
 * True for an address that only this machine reaches: `localhost`, `127.0.0.0/8`, `::1`.
 *
 * @example
 * ```ts
 * isLoopback('127.0.0.1'); // true
 * isLoopback('0.0.0.0'); // false
 * ```
 */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || /^::ffff:127\./.test(h);
}
