/**
 * URL templates of a rollout: `--base-url`, `--subagent-base-url` and `--reward-url` may name
 * `{rollout_id}`, `{task_id}` and `{sample}`, expanded per rollout (each value percent-encoded as a
 * path segment), so that a trainer's gateway sees every call of one rollout under one id (rLLM's
 * `/sessions/{sid}/v1`, Agent Lightning's `/rollout/{rid}/attempt/{aid}/v1`). A tiny module with
 * core only: the option tables check templates with it.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';

/** The placeholders a URL template may name. */
export const URL_PLACEHOLDERS = ['rollout_id', 'task_id', 'sample'] as const;

/** A placeholder's name. */
export type UrlPlaceholder = (typeof URL_PLACEHOLDERS)[number];

/** The values of one rollout: its id (the line's `id`), its task id and its sample number. */
export type RolloutRef = { readonly [K in UrlPlaceholder]: K extends 'sample' ? number : string };

const PLACEHOLDER = /\{([^{}]*)\}/g;

/** The placeholders a template names, each once, in order. */
export function placeholdersOf(template: string): UrlPlaceholder[] {
  const names = [...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
  return [...new Set(names)] as UrlPlaceholder[];
}

/**
 * Check a URL template: an http(s) URL once its placeholders are filled, naming only
 * {@link URL_PLACEHOLDERS}. Returns it without trailing slashes.
 *
 * @throws {@link @parl/core!ParlInputError} naming `field`, the text and what was expected
 */
export function checkUrlTemplate(text: string, field: string): string {
  const unknown = [...text.matchAll(PLACEHOLDER)].map((m) => m[1] as string).find((n) => !(URL_PLACEHOLDERS as readonly string[]).includes(n));
  if (unknown !== undefined) throw new ParlInputError(field, text, `placeholders among {${URL_PLACEHOLDERS.join('}, {')}} (got {${unknown}})`);
  const sample = text.replace(PLACEHOLDER, 'x');
  let url: URL | undefined;
  try {
    url = new URL(sample);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || /[{}]/.test(sample)) {
    throw new ParlInputError(field, text, 'an http(s) URL such as http://127.0.0.1:8000/v1, optionally with {rollout_id}, {task_id} or {sample}');
  }
  return text.replace(/\/+$/, '');
}

/** Whether a URL names a placeholder (a template, expanded per rollout). */
export function isUrlTemplate(text: string): boolean {
  return placeholdersOf(text).length > 0;
}

/**
 * Expand a template for one rollout.
 *
 * @example
 * ```ts
 * expandUrl('http://127.0.0.1:9000/sessions/{rollout_id}/v1', { rollout_id: 'wide-s1-0/rollout-2', task_id: 'wide-s1-0', sample: 2 });
 * // 'http://127.0.0.1:9000/sessions/wide-s1-0%2Frollout-2/v1'
 * ```
 */
export function expandUrl(template: string, rollout: RolloutRef): string {
  return template.replace(PLACEHOLDER, (_, name: UrlPlaceholder) => encodeURIComponent(String(rollout[name])));
}

/**
 * Refuse task ids that a URL template would turn into a dot segment (spec §10.1): `.` and `..`
 * placed by `{task_id}` (or `{rollout_id}`) as a whole path segment are removed by URL parsing
 * (`/t/{task_id}/v1` with `..` reaches `/v1`), and percent-encoding cannot protect them. Checked
 * by what the URL parser does with each expanded template, before any episode.
 *
 * @param templates - the run's URL options that are given: flag → template
 * @param taskIds - the run's task ids
 * @throws {@link @parl/core!ParlInputError} naming the task id and the flag whose template would move it
 */
export function refuseDotSegmentIds(templates: Readonly<Record<string, string | undefined>>, taskIds: Iterable<string>): void {
  for (const id of taskIds) {
    if (id !== '.' && id !== '..') continue;
    for (const [flag, template] of Object.entries(templates)) {
      if (template === undefined || !isUrlTemplate(template)) continue;
      const expanded = expandUrl(template, { rollout_id: `${id}/rollout-0`, task_id: id, sample: 0 });
      const path = expanded.replace(/^[a-z]+:\/\/[^/?#]*/i, '').replace(/[?#].*$/, '');
      if (new URL(expanded).pathname !== (path === '' ? '/' : path)) {
        throw new ParlInputError('task id', id, `an id other than . and .., which ${flag} ${template} would place as a path segment (the request would go to another path)`);
      }
    }
  }
}
