import { request } from 'node:http';

/** The answer to a large POST, and how many `/healthz` requests were answered while it was pending. */
export interface PostWithHealthChecks {
  readonly status: number;
  readonly text: string;
  /** `/healthz` answers (200) received after the body was handed over and before the answer came. */
  readonly answeredMeanwhile: number;
}

/**
 * POST `body` to `base + path` and, once the whole body is handed over, ask `/healthz` over and
 * over until the answer comes: with the work done on the event loop in one go, hardly any health
 * check could be answered before it.
 */
export function postWithHealthChecks(base: string, path: string, body: string): Promise<PostWithHealthChecks> {
  let done = false;
  let answeredMeanwhile = 0;
  let poller: Promise<void> = Promise.resolve();
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        done = true;
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body, () => {
      poller = (async () => {
        while (!done) {
          const res = await fetch(`${base}/healthz`);
          await res.arrayBuffer();
          if (!done && res.status === 200) answeredMeanwhile++;
        }
      })();
    });
  }).then(async (answer) => {
    await poller;
    return { ...answer, answeredMeanwhile };
  });
}
