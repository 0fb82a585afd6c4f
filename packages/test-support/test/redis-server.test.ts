import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { findRedisServer, startRedisServer, type RedisServer } from '../src/redis-server.js';

const lookup = findRedisServer();
if (lookup.skipReason !== undefined) console.warn(`test-support Redis test skipped: ${lookup.skipReason}`);

/** Send one inline command over RESP on a fresh loopback connection and return the raw reply line. */
function command(port: number, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.once('error', reject);
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('utf8');
      if (reply.endsWith('\r\n')) {
        socket.end();
        resolve(reply);
      }
    });
    socket.write(`${line}\r\n`);
  });
}

describe('findRedisServer', () => {
  it('names the path it looked at when nothing runs there', () => {
    const missing = findRedisServer({ ...process.env, CI: '', REDIS_SERVER_PATH: '/nonexistent/redis-server' });
    expect(missing.path).toBeUndefined();
    expect(missing.skipReason).toBe("no redis-server at /nonexistent/redis-server (install Debian's redis-server, as .ci/run does, or set REDIS_SERVER_PATH)");
  });

  it('fails instead of skipping under CI=true', () => {
    expect(() => findRedisServer({ ...process.env, CI: 'true', REDIS_SERVER_PATH: '/nonexistent/redis-server' })).toThrow(
      /^CI=true and a test needs what is missing: no redis-server at \/nonexistent\/redis-server/,
    );
  });
});

describe.skipIf(lookup.skipReason !== undefined)(`startRedisServer${lookup.skipReason === undefined ? '' : ` (skipped: ${lookup.skipReason})`}`, () => {
  const started: RedisServer[] = [];
  afterAll(async () => {
    await Promise.all(started.map((s) => s.close()));
  });

  it('answers PING on loopback with persistence off, and is gone after close()', async () => {
    const redis = await startRedisServer(lookup.path as string);
    started.push(redis);
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(await command(redis.port, 'PING')).toBe('+PONG\r\n');
    expect(await command(redis.port, 'CONFIG GET save')).toBe('*2\r\n$4\r\nsave\r\n$0\r\n\r\n');
    await redis.close();
    await expect(command(redis.port, 'PING')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('restart({ empty: true }) comes back on the same port without the keys it had', async () => {
    const redis = await startRedisServer(lookup.path as string);
    started.push(redis);
    expect(await command(redis.port, 'SET k v')).toBe('+OK\r\n');
    expect(await command(redis.port, 'DBSIZE')).toBe(':1\r\n');
    await redis.restart({ empty: true });
    expect(await command(redis.port, 'PING')).toBe('+PONG\r\n');
    expect(await command(redis.port, 'DBSIZE')).toBe(':0\r\n');
    await redis.close();
  });
});
