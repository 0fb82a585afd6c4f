/**
 * Saving and loading a trained policy: the `policy/` folder of a run holds `policy.json`
 * (format, feature names, network shape, weights).
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ParlInputError, fieldPath, requireArray, requireObject } from '@parl/core';
import { initBackend } from '@parl/gpu';
import { FEATURE_NAMES } from '../internal/engine/features.js';
import { MlpPolicy, type SavedMlpPolicy } from './mlp-policy.js';

/** The file inside a `policy/` folder that holds the network. */
export const POLICY_FILE = 'policy.json';

/** The files of a `policy/` folder, by name, ready to write. */
export function policyFiles(policy: MlpPolicy): Record<string, string> {
  return { [POLICY_FILE]: `${JSON.stringify(policy.toSaved())}\n` };
}

function readNumberList(value: unknown, field: string): number[] {
  return requireArray(value, field).map((v, i) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new ParlInputError(fieldPath(field, i), v, 'a finite number');
    return v;
  });
}

/**
 * Validate parsed `policy.json` content into a saved policy.
 *
 * @throws {@link @parl/core!ParlInputError} naming the field that is missing or wrong
 */
export function validateSavedPolicy(value: unknown, where = POLICY_FILE): SavedMlpPolicy {
  try {
    const obj = requireObject(value, 'policy');
    if (obj['format'] !== 'parl-sim-mlp-policy') throw new ParlInputError('format', obj['format'], '"parl-sim-mlp-policy"');
    if (obj['version'] === 1) {
      throw new ParlInputError('version', 1, '2 (a version 1 policy chose widths from a rule grid; train it again with this version)');
    }
    if (obj['version'] !== 2) throw new ParlInputError('version', obj['version'], '2');
    const features = requireArray(obj['features'], 'features');
    if (features.length !== FEATURE_NAMES.length || features.some((f, i) => f !== FEATURE_NAMES[i])) {
      throw new ParlInputError('features', features, `the features ${JSON.stringify(FEATURE_NAMES)}`);
    }
    const spec = requireObject(obj['spec'], 'spec');
    const hidden = readNumberList(spec['hidden'], 'spec.hidden');
    hidden.forEach((h, i) => {
      if (!Number.isInteger(h) || h < 1) throw new ParlInputError(`spec.hidden[${i}]`, h, 'an integer ≥ 1');
    });
    const positive = (key: string, integers: boolean): number[] => {
      const list = readNumberList(spec[key], `spec.${key}`);
      if (list.length === 0) throw new ParlInputError(`spec.${key}`, list, 'a non-empty array');
      list.forEach((v, i) => {
        if (!(v > 0) || (integers && !Number.isInteger(v))) throw new ParlInputError(`spec.${key}[${i}]`, v, integers ? 'an integer ≥ 1' : 'a positive number');
      });
      return list;
    };
    const relativeCounts = positive('relativeCounts', false);
    const absoluteCounts = positive('absoluteCounts', true);
    const countSpread = spec['countSpread'];
    if (typeof countSpread !== 'number' || !(countSpread > 0) || !Number.isFinite(countSpread)) {
      throw new ParlInputError('spec.countSpread', countSpread, 'a positive number');
    }
    const maxCount = spec['maxCount'];
    if (typeof maxCount !== 'number' || !Number.isInteger(maxCount) || maxCount < 1 || maxCount > 1000) {
      throw new ParlInputError('spec.maxCount', maxCount, 'an integer between 1 and 1000');
    }
    const shareGrid = readNumberList(spec['shareGrid'], 'spec.shareGrid');
    shareGrid.forEach((s, i) => {
      if (!(s > 0 && s <= 1)) throw new ParlInputError(`spec.shareGrid[${i}]`, s, 'a share in (0, 1]');
    });
    const layers = requireArray(obj['layers'], 'layers').map((layer, i) => {
      const l = requireObject(layer, `layers[${i}]`);
      return { weights: readNumberList(l['weights'], `layers[${i}].weights`), bias: readNumberList(l['bias'], `layers[${i}].bias`) };
    });
    const out: SavedMlpPolicy = {
      format: 'parl-sim-mlp-policy',
      version: 2,
      features: [...FEATURE_NAMES],
      spec: { hidden, relativeCounts, absoluteCounts, countSpread, maxCount, shareGrid },
      layers,
    };
    return out;
  } catch (err) {
    if (err instanceof ParlInputError) throw err.at(where);
    throw err;
  }
}

/**
 * Load a trained policy from a run's `policy/` folder (or the run folder itself, which holds one).
 * Its weights live on the backend `@parl/gpu`'s `initBackend` picks, as in training.
 *
 * @throws {@link @parl/core!ParlInputError} when the folder or `policy.json` is missing, does not parse,
 *   or does not hold a valid policy (the message names the file and the field)
 *
 * @example
 * ```ts
 * const config = resolveTrainingConfig({ steps: 2, tasksPerStep: 2, rolloutsPerTask: 2, evaluation: { episodes: 8 } }, getPreset('parl'));
 * const trained = await train(config);
 * await writeRunFolder('runs/parl', trained);
 * trained.policy.dispose();
 * const policy = await loadPolicy('runs/parl/policy');
 * const records = await simulate({ policy, episodes: 100, greedy: true });
 * records.length; // 100
 * policy.dispose();
 * ```
 */
export async function loadPolicy(dir: string): Promise<MlpPolicy> {
  const candidates = [join(dir, POLICY_FILE), join(dir, 'policy', POLICY_FILE)];
  let text: string | undefined;
  let file = candidates[0] as string;
  for (const candidate of candidates) {
    try {
      text = await readFile(candidate, 'utf8');
      file = candidate;
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'ENOTDIR') throw err;
    }
  }
  if (text === undefined) {
    throw new ParlInputError('policy', dir, `a policy folder holding ${POLICY_FILE} (as written by train into <run>/policy/); none found`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ParlInputError('policy', text.length > 40 ? `${text.slice(0, 37)}...` : text, `valid JSON (${(err as Error).message})`, file);
  }
  const saved = validateSavedPolicy(parsed, file);
  // The same backend selection as training (tfjs-node-gpu → tfjs-node → wasm → cpu, PARL_BACKEND).
  await initBackend();
  return MlpPolicy.fromSaved(saved);
}
