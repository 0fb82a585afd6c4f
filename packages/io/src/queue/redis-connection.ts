/**
 * The Redis connection a job queue runs on, made with ioredis as BullMQ expects.
 *
 * @module
 */
import { Redis } from 'ioredis';
import { checkQueueUrl } from './queue-url.js';

/**
 * A Redis connection for BullMQ: `maxRetriesPerRequest: null`, as BullMQ's workers require (a
 * blocking command must wait through a reconnect instead of failing). ioredis keeps reconnecting
 * after an error — for ever, or with `giveUpAfterMs` only until that long has passed without ever
 * connecting (BullMQ's own copies of the connection share the rule); each error goes to `onError`
 * (once per distinct message in a row), never to Node's unhandled-error path.
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
