/** A real server on loopback (port 0) with its episode log in a scratch folder, for one test file. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParlServer, type ParlServer, type ServeOptions } from '../../src/index.js';

export interface TestServer {
  readonly server: ParlServer;
  readonly url: string;
  readonly dir: string;
  readonly logFile: string;
  post(path: string, body: string | Uint8Array, headers?: Record<string, string>): Promise<{ status: number; text: string; headers: Headers }>;
  restart(options?: ServeOptions): Promise<TestServer>;
  stop(): Promise<void>;
}

export async function startServer(options: ServeOptions = {}, dir = mkdtempSync(join(tmpdir(), 'parl-serve-'))): Promise<TestServer> {
  const logFile = options.logFile ?? join(dir, 'episodes.jsonl');
  const server = await createParlServer({ port: 0, quietPeriodMs: 20, ...options, logFile });
  const self: TestServer = {
    server,
    url: server.url,
    dir,
    logFile,
    async post(path, body, headers = { 'content-type': 'application/json' }) {
      const res = await fetch(`${server.url}${path}`, { method: 'POST', headers, body });
      return { status: res.status, text: await res.text(), headers: res.headers };
    },
    async restart(more = {}) {
      await server.close();
      return startServer({ ...options, ...more, logFile }, dir);
    },
    async stop() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return self;
}
