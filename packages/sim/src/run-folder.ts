/**
 * Writing a training run as a spec §6 run folder, atomically: everything is written into a
 * temporary folder beside the target and renamed into place, so a failure leaves no partial run.
 *
 * @module
 */
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ParlInputError } from '@parl/core';
import { policyFiles } from './policy-io.js';
import type { TrainingResult } from './trainer.js';

/** The files of a run folder by relative path (`config.json`, `metrics.jsonl`, `summary.json`, `policy/…`). */
export function runFolderFiles(result: TrainingResult): Record<string, string> {
  const files: Record<string, string> = {
    'config.json': `${JSON.stringify(result.config, null, 2)}\n`,
    'metrics.jsonl': result.metrics.map((m) => JSON.stringify(m)).join('\n') + (result.metrics.length > 0 ? '\n' : ''),
    'summary.json': `${JSON.stringify(result.summary, null, 2)}\n`,
  };
  for (const [name, content] of Object.entries(policyFiles(result.policy))) files[`policy/${name}`] = content;
  return files;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Write a spec §6 run folder: config.json, metrics.jsonl, summary.json, policy/ and any extra
 * files (e.g. `report.html` from the CLI). The folder appears complete or not at all: the files
 * are built in a temporary folder beside `dir` and renamed to `dir` at the end; on failure the
 * temporary folder is removed. An existing `dir` is replaced only after the new one is complete.
 *
 * @param dir - the run folder to create
 * @param result - what {@link train} returned
 * @param extraFiles - more files by relative path (no `..`, not absolute)
 * @throws {@link @parl/core!ParlInputError} for an extra file path that leaves the folder
 *
 * @example
 * ```ts
 * await writeRunFolder('runs/parl', result, { 'report.html': html });
 * ```
 */
export async function writeRunFolder(dir: string, result: TrainingResult, extraFiles: Record<string, string> = {}): Promise<void> {
  const target = resolve(dir);
  for (const name of Object.keys(extraFiles)) {
    if (name === '' || name.startsWith('/') || name.split(/[\\/]/).some((part) => part === '..' || part === '')) {
      throw new ParlInputError(`extraFiles[${JSON.stringify(name)}]`, name, 'a relative path inside the run folder');
    }
  }
  const files = { ...runFolderFiles(result), ...extraFiles };
  const parent = dirname(target);
  await mkdir(parent, { recursive: true });
  const tag = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const temp = join(parent, `.${basename(target)}.tmp-${tag}`);
  const old = join(parent, `.${basename(target)}.old-${tag}`);
  try {
    await mkdir(temp);
    for (const [name, content] of Object.entries(files)) {
      const path = join(temp, name);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content, 'utf8');
    }
    if (await exists(target)) {
      await rename(target, old);
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
  }
}
