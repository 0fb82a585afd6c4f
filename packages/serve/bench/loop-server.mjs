// The server of bench/event-loop.mjs, in a process of its own, with the event-loop delay monitor
// inside it: started by fork() with labelThreads as argument; messages 'start' (reset and enable
// the monitor) and 'stop' (disable it, answer its p99 and max in ms); 'close' ends the process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createParlServer } from '@parl/serve';

const dir = mkdtempSync(join(tmpdir(), 'parl-serve-loop-'));
const server = await createParlServer({ port: 0, labelThreads: Number(process.argv[2]), quietPeriodMs: 0, logFile: join(dir, 'episodes.jsonl') });
const histogram = monitorEventLoopDelay({ resolution: 1 });
process.on('message', (message) => {
  if (message === 'start') {
    histogram.reset();
    histogram.enable();
    process.send({ started: true });
  } else if (message === 'stop') {
    histogram.disable();
    process.send({ p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 });
  } else if (message === 'close') {
    void server.close().then(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  }
});
process.send({ url: server.url });
