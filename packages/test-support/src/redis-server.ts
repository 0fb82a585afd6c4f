/**
 * A real `redis-server` for tests: Debian's binary on a free loopback port, no persistence, its
 * working folder a fresh temp folder; `close()` stops it and waits for it to be gone.
 *
 * @module
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { skipOutsideCi } from './ci-requirement.js';

/** Where redis-server is, or why the Redis tests skip. */
export type RedisServerLookup = { readonly path: string; readonly skipReason?: undefined } | { readonly path?: undefined; readonly skipReason: string };

/**
 * Find redis-server: `REDIS_SERVER_PATH` when set, else `redis-server` on the PATH (Debian's
 * `/usr/bin/redis-server`, what `.ci/run` installs). Returns a skip reason naming the path looked
 * at when it does not run; under `CI=true` that throws instead.
 */
export function findRedisServer(env: NodeJS.ProcessEnv = process.env): RedisServerLookup {
  const set = env['REDIS_SERVER_PATH'];
  const onPath = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8', env }).stdout?.trim() ?? '';
  const path = set !== undefined && set !== '' ? set : onPath !== '' ? onPath : '/usr/bin/redis-server';
  if (spawnSync(path, ['--version']).status === 0) return { path };
  return { skipReason: skipOutsideCi(`no redis-server at ${path} (install Debian's redis-server, as .ci/run does, or set REDIS_SERVER_PATH)`, env) };
}

/** A running redis-server started by {@link startRedisServer}. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** The loopback port it listens on (kept across {@link RedisServer.restart}). */
  readonly port: number;
  /**
   * Stop it and start it again on the same port. With no persistence the new server is always
   * empty, which the caller states with `{ empty: true }`.
   */
  restart(options: { readonly empty: true }): Promise<void>;
  /** Stop it (SIGTERM, SIGKILL after 5 s), wait until the process is gone, and remove its folder. */
  close(): Promise<void>;
}

/** How long {@link startRedisServer} waits for "Ready to accept connections". */
const READY_TIMEOUT_MS = 15_000;
/** How long {@link RedisServer.close} waits after SIGTERM before SIGKILL. */
const STOP_GRACE_MS = 5_000;
/** Free ports tried when another process takes the port between choosing and binding it. */
const PORT_ATTEMPTS = 3;

async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Spawn redis-server on `port`; resolves once it says it is ready, rejects with its output if it exits first. */
function spawnReady(path: string, port: number, dir: string): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'];
  const child = spawn(path, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server on port ${port} not ready within ${READY_TIMEOUT_MS / 1000} s; it printed:\n${output}`));
    }, READY_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        child.stderr?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`redis-server on port ${port} exited (${signal ?? `code ${code}`}) before it was ready; it printed:\n${output}`));
    });
  });
}

/** Send SIGTERM, then SIGKILL after {@link STOP_GRACE_MS}; resolves once the process has exited. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Start a redis-server on a free loopback port with persistence off (`--save ''`,
 * `--appendonly no`) and a fresh temp folder as its `--dir`. Call `close()` in `afterAll`.
 *
 * @param path - the binary, from {@link findRedisServer}
 */
export async function startRedisServer(path: string): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), 'parl-redis-'));
  let child: ChildProcess | undefined;
  let port = 0;
  let lastError: unknown;
  for (let attempt = 0; attempt < PORT_ATTEMPTS && child === undefined; attempt++) {
    port = await freeLoopbackPort();
    try {
      child = await spawnReady(path, port, dir);
    } catch (err) {
      lastError = err;
    }
  }
  if (child === undefined) {
    await rm(dir, { recursive: true, force: true });
    throw lastError;
  }
  let running: ChildProcess = child;
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async restart() {
      await stop(running);
      running = await spawnReady(path, port, dir);
    },
    async close() {
      await stop(running);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
