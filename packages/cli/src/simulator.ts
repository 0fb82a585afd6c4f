/**
 * The simulator is optional: `@parl/sim` (and the TensorFlow.js it brings, about 65 MB) is an
 * optional peer of `@parl/cli`, needed only by `parl simulate` and `parl train`. This module finds
 * out whether it is installed without loading it, and turns its absence into one clear line.
 *
 * @module
 */
import { createRequire } from 'node:module';
import { CliError } from './errors.js';

/** The simulator's names, from `@parl/sim/names` (a tiny module, no TensorFlow.js). */
export interface SimulatorNames {
  /** Training presets. */
  readonly PRESET_NAMES: readonly string[];
  /** Scripted orchestrator policies. */
  readonly SCRIPTED_POLICY_NAMES: readonly string[];
  /** Task families. */
  readonly TASK_FAMILIES: readonly string[];
}

/** The line that tells a user how to add the simulator. */
export const INSTALL_SIMULATOR_HINT = 'npm install @parl/sim (the simulator; it brings TensorFlow.js, about 65 MB)';

let names: SimulatorNames | null | undefined;

/** The simulator's names when `@parl/sim` is installed, else undefined (read once, synchronously). */
export function simulatorNames(): SimulatorNames | undefined {
  if (names === undefined) {
    try {
      names = createRequire(import.meta.url)('@parl/sim/names') as SimulatorNames;
    } catch {
      names = null;
    }
  }
  return names ?? undefined;
}

/** True for the error of importing a module that needs `@parl/sim` when it is not installed. */
function isMissingSimulator(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') && /['"]@parl\/sim['"/]/.test(String(e?.message));
}

/**
 * Load a command module that needs the simulator; when `@parl/sim` is missing, fail with one line
 * saying how to add it (exit code 1).
 *
 * @param command - the command, for the message (`train`)
 * @param load - the dynamic import of the command's module
 * @throws {@link CliError} when `@parl/sim` is not installed
 */
export async function withSimulator<T>(command: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (isMissingSimulator(err)) throw new CliError(`parl ${command} needs @parl/sim, which is not installed: ${INSTALL_SIMULATOR_HINT}`, 1);
    throw err;
  }
}
