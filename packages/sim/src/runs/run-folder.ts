/**
 * Writing a training run as a spec §6 run folder, atomically: everything is written into a
 * temporary folder beside the target and renamed into place, so a failure leaves no partial run.
 *
 * @module
 */
import { lstat, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ParlInputError } from '@parl/core';
import { policyFiles } from '../policies/policy-io.js';
import type { TrainingResult } from '../training/trainer.js';
import { CONFIG_FILE, METRICS_FILE, POLICY_FOLDER, RUN_FOLDER_ENTRIES, SUMMARY_FILE } from './run-folder-entries.js';

/** The files of a run folder by relative path (`config.json`, `metrics.jsonl`, `summary.json`, `policy/…`). */
export function runFolderFiles(result: TrainingResult): Record<string, string> {
  const files: Record<string, string> = {
    [CONFIG_FILE]: `${JSON.stringify(result.config, null, 2)}\n`,
    [METRICS_FILE]: result.metrics.map((m) => JSON.stringify(m)).join('\n') + (result.metrics.length > 0 ? '\n' : ''),
    [SUMMARY_FILE]: `${JSON.stringify(result.summary, null, 2)}\n`,
  };
  for (const [name, content] of Object.entries(policyFiles(result.policy))) files[`${POLICY_FOLDER}/${name}`] = content;
  return files;
}

/** A set of temporary paths that must not outlive the process (the CLI removes them on SIGINT/SIGTERM). */
export interface TempPathRegistry {
  /** A temporary path was created. */
  add(path: string): void;
  /** It was renamed into place or removed. */
  delete(path: string): void;
}

/** Options of {@link writeRunFolder} and {@link checkRunFolderTarget}. */
export interface RunFolderOptions {
  /** Replace whatever is at the target, even a folder or file that is not a run folder. */
  readonly force?: boolean;
  /** Told of the temporary folder while it exists, so an interrupted run can remove it. */
  readonly tempPaths?: TempPathRegistry;
}

/**
 * Check that a run folder may be written at `dir` without losing anything: `dir` does not exist,
 * is an empty folder, or is a previous run folder (it has `config.json` and holds nothing but
 * {@link RUN_FOLDER_ENTRIES}). Anything else is replaced only with `force`.
 *
 * @throws {@link @parl/core!ParlInputError} naming the path and what is in the way
 *
 * @example
 * ```ts
 * await checkRunFolderTarget('runs/parl'); // before spending minutes on training
 * ```
 */
export async function checkRunFolderTarget(dir: string, options: RunFolderOptions = {}): Promise<void> {
  if (options.force === true) return;
  let info;
  try {
    info = await lstat(dir);
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') return;
    throw err;
  }
  if (!info.isDirectory()) {
    throw new ParlInputError('out', dir, 'a folder for the run, but it is an existing file (choose another path, or pass --force to replace it)');
  }
  const entries = await readdir(dir);
  if (entries.length === 0) return;
  const foreign = entries.filter((name) => !RUN_FOLDER_ENTRIES.includes(name));
  if (foreign.length === 0 && entries.includes('config.json')) return;
  const shown = (foreign.length > 0 ? foreign : entries).slice(0, 3).join(', ');
  throw new ParlInputError(
    'out',
    dir,
    `a new folder, an empty one or a previous run folder, but it holds ${shown}${entries.length > 3 ? ', …' : ''}, which parl train did not write (choose another path, or pass --force to replace it)`,
  );
}

/** Every name of `files` is a relative path inside the folder, or a {@link ParlInputError} names `label[name]`. */
function checkRelativePaths(files: Readonly<Record<string, string>>, label: string): void {
  for (const name of Object.keys(files)) {
    if (name === '' || name.startsWith('/') || name.split(/[\\/]/).some((part) => part === '..' || part === '')) {
      throw new ParlInputError(`${label}[${JSON.stringify(name)}]`, name, 'a relative path inside the run folder');
    }
  }
}

/**
 * Write a folder of files atomically: they are written into a hidden temporary folder beside
 * `dir` and renamed to `dir` at the end, so the folder appears complete or not at all; on failure
 * the temporary folder is removed. An existing `dir` is replaced only after the new one is
 * complete, and only when {@link checkRunFolderTarget} allows it (a previous run folder, or
 * `force`). This is the one writer of run folders: `parl train` writes through
 * {@link writeRunFolder}, and `parl sweep` writes the files its workers send back through this.
 *
 * @param dir - the folder to create
 * @param files - its files by relative path (no `..`, not absolute)
 * @param options - {@link RunFolderOptions}
 * @throws {@link @parl/core!ParlInputError} for a path that leaves the folder, or a target that is not a run folder
 *
 * @example
 * ```ts
 * import { readFile } from 'node:fs/promises';
 * await writeFolderAtomically('sweep/runs/3f2a', { 'summary.json': '{}' });
 * await writeFolderAtomically('sweep/runs/3f2a', { 'summary.json': '{"steps":2}' }, { force: true });
 * JSON.parse(await readFile('sweep/runs/3f2a/summary.json', 'utf8')).steps; // 2
 * ```
 */
export async function writeFolderAtomically(dir: string, files: Readonly<Record<string, string>>, options: RunFolderOptions = {}): Promise<void> {
  const target = resolve(dir);
  checkRelativePaths(files, 'files');
  await checkRunFolderTarget(dir, options);
  const parent = dirname(target);
  await mkdir(parent, { recursive: true });
  const tag = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const temp = join(parent, `.${basename(target)}.tmp-${tag}`);
  const old = join(parent, `.${basename(target)}.old-${tag}`);
  options.tempPaths?.add(temp);
  try {
    await mkdir(temp);
    for (const [name, content] of Object.entries(files)) {
      const path = join(temp, name);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content, 'utf8');
    }
    await checkRunFolderTarget(dir, options);
    let replaced = false;
    try {
      await rename(target, old);
      replaced = true;
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'ENOENT') throw err;
    }
    if (replaced) {
      try {
        await rename(temp, target);
      } catch (err) {
        await rename(old, target);
        throw err;
      }
      await rm(old, { recursive: true, force: true });
    } else {
      await rename(temp, target);
    }
  } catch (err) {
    await rm(temp, { recursive: true, force: true });
    throw err;
  } finally {
    options.tempPaths?.delete(temp);
  }
}

/**
 * Write a spec §6 run folder: config.json, metrics.jsonl, summary.json, policy/ and any extra
 * files (e.g. `report.html` from the CLI), atomically ({@link writeFolderAtomically}).
 *
 * @param dir - the run folder to create
 * @param result - what {@link train} returned
 * @param extraFiles - more files by relative path (no `..`, not absolute)
 * @param options - {@link RunFolderOptions}
 * @throws {@link @parl/core!ParlInputError} for an extra file path that leaves the folder, or a target that is not a run folder
 *
 * @example
 * ```ts
 * import { readdir } from 'node:fs/promises';
 * const config = resolveTrainingConfig({ steps: 2, tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 8 } }, getPreset('parl'));
 * const result = await train(config);
 * await writeRunFolder('runs/parl', result, { 'report.html': '<!doctype html><title>parl</title>' });
 * result.policy.dispose();
 * (await readdir('runs/parl')).includes('report.html'); // true
 * ```
 */
export async function writeRunFolder(
  dir: string,
  result: TrainingResult,
  extraFiles: Record<string, string> = {},
  options: RunFolderOptions = {},
): Promise<void> {
  checkRelativePaths(extraFiles, 'extraFiles');
  await writeFolderAtomically(dir, { ...runFolderFiles(result), ...extraFiles }, options);
}
