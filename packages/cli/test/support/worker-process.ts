/**
 * A `parl worker` process started by a test: its stderr collected, `waitFor` resolving on the first
 * match of a pattern (or failing with what the worker printed), `stop` sending a signal and waiting
 * for it to exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { BIN, requireBuiltBin } from './bin.js';

/** A running `parl worker`. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  /** What it has printed to stderr so far. */
  log(): string;
  /** The first match of `pattern` in its stderr; rejects naming what it printed after `timeoutMs` (60 s) or when it exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Send `signal` (SIGTERM) and wait for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Start `parl worker ARGS` (the built bin unless `bin` names another install's), its stdout dropped. */
export function startWorker(args: readonly string[], options: { readonly env?: NodeJS.ProcessEnv; readonly bin?: string } = {}): WorkerProcess {
  if (options.bin === undefined) requireBuiltBin();
  const child = spawn(process.execPath, [options.bin ?? BIN, 'worker', ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: options.env ?? process.env });
  let text = '';
  const waiters: (() => void)[] = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const w of waiters.splice(0)) w();
  });
  child.on('exit', () => {
    for (const w of waiters.splice(0)) w();
  });
  return {
    child,
    log: () => text,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`worker never printed ${pattern}; it printed:\n${text}`)), timeoutMs);
        const check = (): void => {
          const m = text.match(pattern);
          if (m !== null) {
            clearTimeout(timer);
            resolve(m);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            clearTimeout(timer);
            reject(new Error(`worker exited (${child.exitCode ?? child.signalCode}) before printing ${pattern}; it printed:\n${text}`));
          } else waiters.push(check);
        };
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}
