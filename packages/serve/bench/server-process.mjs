// The server under test, in a process of its own (bench/run.mjs starts it): listens on a free
// loopback port, prints its URL on stdout, and closes gracefully on SIGTERM.
// Usage: node bench/server-process.mjs LOG_FILE [fsync policy]   (LOG_FILE "none": no episode log)
// Env: LABEL_THREADS (the server's labelThreads), MAX_EPISODES (its maxEpisodes), MAX_SPANS_PER_TRACE
// (its maxSpansPerTrace), MAX_OPEN_SPANS (its maxOpenSpans); default: its own.
import { createParlServer } from '@parl/serve';

const [logFile, fsync = 'always'] = process.argv.slice(2);
const server = await createParlServer({ port: 0, host: '127.0.0.1', ...(logFile === 'none' ? {} : { logFile }), fsync, quietPeriodMs: 200, ...(process.env.LABEL_THREADS === undefined ? {} : { labelThreads: Number(process.env.LABEL_THREADS) }), ...(process.env.MAX_EPISODES === undefined ? {} : { maxEpisodes: Number(process.env.MAX_EPISODES) }), ...(process.env.MAX_SPANS_PER_TRACE === undefined ? {} : { maxSpansPerTrace: Number(process.env.MAX_SPANS_PER_TRACE) }), ...(process.env.MAX_OPEN_SPANS === undefined ? {} : { maxOpenSpans: Number(process.env.MAX_OPEN_SPANS) }) });
process.stdout.write(`${server.url}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
