/**
 * The `--queue` URL of a job queue: `redis://[user:password@]host[:port][/db]`, or `rediss://` for
 * TLS. Checked before anything connects, and shown without its password in every message.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';

/** What a `--queue` URL must look like, in words. */
const EXPECTED = 'a Redis URL: redis://HOST[:PORT][/DB] or rediss://…';

/**
 * Check a `--queue` URL; returns it unchanged.
 *
 * @param field - the flag or field it came from, for the message (default `--queue`)
 * @throws {@link @parl/core!ParlInputError} for anything but a redis:// or rediss:// URL
 *
 * @example
 * ```ts
 * checkQueueUrl('redis://10.0.0.5:6379'); // 'redis://10.0.0.5:6379'
 * ```
 */
export function checkQueueUrl(url: string, field = '--queue'): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ParlInputError(field, url, EXPECTED);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new ParlInputError(field, url, EXPECTED);
  return url;
}

/**
 * The URL without its password, for messages.
 *
 * @example
 * ```ts
 * shownQueueUrl('redis://:secret@10.0.0.5:6379'); // 'redis://:***@10.0.0.5:6379'
 * ```
 */
export function shownQueueUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.href.replace(/\/$/, '');
}
