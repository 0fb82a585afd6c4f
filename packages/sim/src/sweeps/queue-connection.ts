/**
 * The Redis of a sweep queue: `--queue redis://[user:password@]host[:port][/db]` (or `rediss://`
 * for TLS), connected with ioredis as BullMQ expects, and the queue's name.
 *
 * @module
 */
import { Redis } from 'ioredis';
import { SweepError } from './sweep-error.js';

/** The queue `parl sweep --queue` and `parl worker` use unless `--queue-name` says otherwise. */
export const DEFAULT_QUEUE_NAME = 'parl-sweep';

/**
 * Check a `--queue` URL; returns it unchanged.
 *
 * @throws {@link SweepError} (usage) for anything but a redis:// or rediss:// URL
 */
export function checkQueueUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SweepError(`--queue ${url} is not a URL; expected redis://HOST[:PORT][/DB]`, true);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new SweepError(`--queue ${url} is not a Redis URL; expected redis://HOST[:PORT][/DB] or rediss://…`, true);
  }
  return url;
}

/** The URL without its password, for messages. */
export function shownQueueUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.href.replace(/\/$/, '');
}

/**
 * A Redis connection for BullMQ: `maxRetriesPerRequest: null`, as BullMQ's workers require (a
 * blocking command must wait through a reconnect instead of failing). ioredis keeps reconnecting
 * after an error — for ever, or with `giveUpAfterMs` only until that long has passed without ever
 * connecting (BullMQ's own copies of the connection share the rule); each error goes to `onError` (once per distinct message in a row), never to
 * Node's unhandled-error path.
 */
export function redisConnection(url: string, onError: (message: string) => void = () => undefined, giveUpAfterMs?: number): Redis {
  const started = Date.now();
  let everReady = false;
  const retryStrategy = (times: number): number | null =>
    everReady || giveUpAfterMs === undefined || Date.now() - started < giveUpAfterMs ? Math.min(times * 200, 2_000) : null;
  const connection = new Redis(checkQueueUrl(url), { maxRetriesPerRequest: null, lazyConnect: false, retryStrategy });
  let last = '';
  connection.on('error', (err: Error) => {
    if (err.message === last) return;
    last = err.message;
    onError(err.message);
  });
  connection.on('ready', () => {
    everReady = true;
    last = '';
  });
  return connection;
}
