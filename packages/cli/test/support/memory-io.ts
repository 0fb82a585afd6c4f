import { Readable, Writable } from 'node:stream';
import type { CliIo } from '../../src/terminal/cli-io.js';
import { runCli } from '../../src/run-cli.js';

/** Streams in memory: stdin from a string, stdout and stderr collected. */
export interface MemoryIo {
  readonly io: CliIo;
  stdout(): string;
  stderr(): string;
}

function collector(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, done): void {
      chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

export function memoryIo(stdin = '', stderrIsTTY = false): MemoryIo {
  const out = collector();
  const err = collector();
  return {
    io: { stdin: Readable.from([Buffer.from(stdin)]), stdout: out.stream, stderr: err.stream, stderrIsTTY },
    stdout: out.text,
    stderr: err.text,
  };
}

/** The outcome of one in-process `parl` run. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run `parl ARGS` in-process with `stdin`. */
export async function parl(args: readonly string[], stdin = ''): Promise<CliRun> {
  const m = memoryIo(stdin);
  const code = await runCli(['node', 'parl', ...args], m.io);
  return { code, stdout: m.stdout(), stderr: m.stderr() };
}
