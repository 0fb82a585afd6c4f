/**
 * The names of the scripted models (`--model scripted:<policy>`, `--subagent-model
 * scripted:lookup`): a tiny module with no imports, so that the option tables can check them
 * without loading the models.
 *
 * @module
 */

/** The scripted orchestrators' policies (`--model scripted:<policy>`). */
export const SCRIPTED_POLICIES = ['parallel', 'serial', 'spurious', 'single'] as const;

/** A scripted orchestrator's policy. */
export type ScriptedPolicy = (typeof SCRIPTED_POLICIES)[number];

/** The prefix of a scripted model's name. */
export const SCRIPTED_PREFIX = 'scripted:';

/** The scripted look-up program as a sub-agent model name (what `--subagents scripted` runs). */
export const SCRIPTED_LOOKUP_NAME = 'scripted:lookup';

/** Every scripted model name `--model` takes. */
export const SCRIPTED_ORCHESTRATOR_NAMES: readonly string[] = SCRIPTED_POLICIES.map((p) => `${SCRIPTED_PREFIX}${p}`);

/** Whether a model name names a scripted model (which needs no endpoint). */
export function isScriptedName(name: string): boolean {
  return name.startsWith(SCRIPTED_PREFIX);
}
