/**
 * The process's one cleanup registry: what must not outlive it. Atomic writes register their temp
 * path here while it exists; on SIGINT or SIGTERM (and on a fatal stdout error) every registered
 * path is removed before the process exits with 130, 143 or 1. Child processes (an MCP server's
 * process group) register a synchronous stop, run whenever the process exits, signals included.
 *
 * @module
 */
import { rmSync } from 'node:fs';

const livePaths = new Set<string>();

/** The registry atomic writers report their temp paths to (also handed to `@parl/sim`'s run-folder writer). */
export const tempPaths = {
  /** A temp path now exists. */
  add(path: string): void {
    livePaths.add(path);
  },
  /** It was renamed into place or removed. */
  delete(path: string): void {
    livePaths.delete(path);
  },
} as const;

/** Remove every registered temp path now (synchronously: this runs on the way out of the process). */
export function removeTempPaths(): void {
  for (const path of livePaths) {
    try {
      rmSync(path, { recursive: true, force: true });
    } catch {
      // Best effort: the process is ending; a path that cannot be removed is left as it is.
    }
  }
  livePaths.clear();
}

const exitTasks = new Set<() => void>();
let exitHookInstalled = false;

function runExitTasks(): void {
  for (const task of exitTasks) {
    try {
      task();
    } catch {
      // Best effort: the process is ending.
    }
  }
  exitTasks.clear();
}

/**
 * Run `task` (synchronous: it runs on the way out, `process.kill` of a child's process group)
 * when the process exits, however it exits (a signal handled by {@link removeTempPathsOnSignal}
 * included), unless it was removed first.
 *
 * @returns a function that removes the task (call it once the child is stopped)
 */
export function onProcessExit(task: () => void): () => void {
  exitTasks.add(task);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', runExitTasks);
  }
  return () => {
    exitTasks.delete(task);
  };
}

/** Exit codes of the conventional shell form 128 + signal number. */
const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

let installed = false;
let beforeExit: (() => Promise<void>) | undefined;
let stopping = false;

/**
 * Run `stop` (a graceful shutdown: `parl serve` drains its requests) on the first SIGINT or
 * SIGTERM before the process exits; a second signal exits at once.
 */
export function onSignalBeforeExit(stop: () => Promise<void>): void {
  beforeExit = stop;
}

/**
 * On SIGINT or SIGTERM, remove the registered temp paths and exit with 130 or 143, as shells
 * expect of an interrupted command. Installed once per process by the `parl` bin.
 */
export function removeTempPathsOnSignal(): void {
  if (installed) return;
  installed = true;
  for (const [signal, code] of Object.entries(SIGNAL_EXIT_CODES)) {
    process.on(signal, () => {
      if (beforeExit !== undefined && !stopping) {
        stopping = true;
        void beforeExit().finally(() => {
          removeTempPaths();
          process.exit(code);
        });
        return;
      }
      removeTempPaths();
      process.exit(code);
    });
  }
}
