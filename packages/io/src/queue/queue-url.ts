/**
 * The `--queue` URL of a job queue: `redis://[user:password@]host[:port][/db]`, or `rediss://` for
 * TLS — or `env:NAME`, the URL read from the environment variable NAME, so that a password never
 * appears in the process list (`ps`). Checked before anything connects, and shown without its
 * password in every message.
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

/** `env:NAME`: the URL is read from the environment variable NAME. */
const ENV_REFERENCE = /^env:([A-Za-z_][A-Za-z0-9_]*)$/;

/** The environment variable `parl` documents for the queue's URL (`--queue env:PARL_QUEUE_URL`). */
export const QUEUE_URL_VARIABLE = 'PARL_QUEUE_URL';

/**
 * A `--queue` value as given: a Redis URL, or `env:NAME` for the URL in the environment variable
 * NAME (so a password is not in the process list). Returns the URL, checked.
 *
 * @param field - the flag or field it came from, for the message (default `--queue`)
 * @param env - the environment `env:NAME` reads (default `process.env`)
 * @throws {@link @parl/core!ParlInputError} for an unset variable or anything but a redis:// or rediss:// URL
 *   (an URL read from the environment is not repeated in the message: it may hold a password)
 *
 * @example
 * ```ts
 * resolveQueueUrl('env:PARL_QUEUE_URL', '--queue', { PARL_QUEUE_URL: 'redis://:secret@10.0.0.5:6379' }); // 'redis://:secret@10.0.0.5:6379'
 * ```
 */
export function resolveQueueUrl(text: string, field = '--queue', env: NodeJS.ProcessEnv = process.env): string {
  const name = ENV_REFERENCE.exec(text)?.[1];
  if (name === undefined) return checkQueueUrl(text, field);
  const value = env[name];
  if (value === undefined || value === '') throw new ParlInputError(field, text, `a Redis URL, or env:NAME naming a set environment variable (${name} is not set)`);
  try {
    return checkQueueUrl(value, field);
  } catch {
    throw new ParlInputError(field, text, `${EXPECTED}, which the value of ${name} is not`);
  }
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
