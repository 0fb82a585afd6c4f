// A server in a child process (the built package), for kill -9 tests: prints its URL, then runs.
import { createParlServer } from '@parl/serve';

const server = await createParlServer({ port: 0, logFile: process.argv[2], fsync: process.argv[3] ?? 'always' });
process.stdout.write(`${server.url}\n`);
