/**
 * `parl simulate`: run a scripted policy or a trained one (`--policy DIR`) in the swarm simulator
 * and write its spec §5 episode records.
 *
 * @module
 */
import { readFile, stat } from 'node:fs/promises';
import { ParlInputError } from '@parl/core';
import { SCRIPTED_POLICY_NAMES, isScriptedPolicyName, loadPolicy, simulate, type EnvConfig, type Policy } from '@parl/sim';
import { CliError, describeFsError } from '../../errors.js';
import { SIMULATE_DEFAULTS, type SimulateSettings } from '@parl/sim/options';
import type { CliIo } from '../../terminal/cli-io.js';
import { createRecordWriter, type OutputFormat } from '@parl/io';
import { openTextSink } from '@parl/io';


/**
 * Options of {@link simulateCommand}, one per flag: the simulator's settings (`@parl/sim`'s
 * `SimulateSettings`, declared in its `SIMULATE_OPTIONS`) and where the records go.
 */
export interface SimulateCommandOptions extends SimulateSettings {
  /** `--out FILE` (atomic); stdout when absent. */
  readonly out?: string;
  /** `--format` (default `jsonl`). */
  readonly format?: OutputFormat;
  /** `--columns` for CSV. */
  readonly columns?: readonly string[];
}

/** What {@link simulateCommand} did, as printed by `--json`. */
export interface SimulateSummary {
  /** The policy: a scripted name or the folder it was loaded from. */
  readonly policy: string;
  /** Episodes written. */
  readonly episodes: number;
  /** The seed used. */
  readonly seed: number;
  /** Output path or `stdout`. */
  readonly output: string;
  /** Output format. */
  readonly output_format: OutputFormat;
}

async function readEnvFile(path: string): Promise<Partial<EnvConfig>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read --env ${path}: ${describeFsError(err)}`);
  }
  try {
    return JSON.parse(text) as Partial<EnvConfig>;
  } catch (err) {
    throw new CliError(`cannot read --env ${path}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** A scripted policy by name, or a trained one loaded from a folder. */
async function policyOf(spec: string): Promise<{ policy: Policy | (typeof SCRIPTED_POLICY_NAMES)[number]; trained: boolean; dispose: () => void }> {
  if (isScriptedPolicyName(spec)) return { policy: spec, trained: false, dispose: () => undefined };
  let isDir = false;
  try {
    isDir = (await stat(spec)).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) {
    throw new ParlInputError('--policy', spec, `a scripted policy (${SCRIPTED_POLICY_NAMES.join(', ')}) or the folder of a trained one (a run folder or its policy/)`);
  }
  const policy = await loadPolicy(spec);
  return { policy, trained: true, dispose: () => policy.dispose() };
}

/**
 * Simulate episodes and write their records (JSONL by default).
 *
 * @throws {@link @parl/core!ParlInputError} for an unknown policy, a bad policy folder or environment setting
 *
 * @example
 * ```ts
 * await simulateCommand({ policy: 'serial', family: 'deep', episodes: 20, out: 'serial.jsonl' }, processIo());
 * ```
 */
export async function simulateCommand(options: SimulateCommandOptions, io: CliIo): Promise<SimulateSummary> {
  const env = options.env === undefined ? undefined : await readEnvFile(options.env);
  const policySpec = options.policy ?? SIMULATE_DEFAULTS.policy;
  const { policy, trained, dispose } = await policyOf(policySpec);
  if (options.sample === true && !trained) {
    dispose();
    throw new ParlInputError('--sample', true, `used with a trained policy (--policy DIR); scripted policies such as ${policySpec} have no sampling`);
  }
  const seed = options.seed ?? SIMULATE_DEFAULTS.seed;
  let records;
  try {
    records = await simulate({
      policy,
      episodes: options.episodes ?? SIMULATE_DEFAULTS.episodes,
      seed,
      greedy: options.sample !== true,
      ...(options.family === undefined ? {} : { family: options.family }),
      ...(env === undefined ? {} : { env }),
    });
  } catch (err) {
    if (err instanceof ParlInputError && options.env !== undefined && err.field.startsWith('env')) throw err.at(`--env ${options.env}`);
    throw err;
  } finally {
    dispose();
  }
  const format = options.format ?? 'jsonl';
  const writer = createRecordWriter(format, await openTextSink(options.out, io.stdout), {
    ...(options.columns === undefined ? {} : { columns: options.columns }),
    warn: (message) => io.stderr.write(`parl simulate: note: ${message}\n`),
  });
  try {
    for (let i = 0; i < records.length; i++) await writer.write(records[i] as unknown as Record<string, unknown>, `record ${i + 1}`);
    await writer.finish();
  } catch (err) {
    await writer.abort();
    throw err;
  }
  return { policy: policySpec, episodes: records.length, seed, output: options.out ?? 'stdout', output_format: format };
}
