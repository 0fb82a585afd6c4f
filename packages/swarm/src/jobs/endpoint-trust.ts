/**
 * Which endpoints a `parl worker` trusts with its API key. A rollout job names its endpoint, and
 * anyone who can write to the queue writes jobs: a worker sends its key (`PARL_API_KEY`,
 * `OPENAI_API_KEY`) only to an endpoint under one of the prefixes it was given
 * (`--allow-endpoint URL_PREFIX`); a job naming any other endpoint is not run and fails with
 * {@link UntrustedEndpointError}, naming the job and the endpoint. A worker without a key runs
 * every job (there is nothing to leak, and local servers need none).
 *
 * @module
 */
import { API_KEY_VARIABLES, SUBAGENT_API_KEY_VARIABLE } from './endpoint-models.js';
import { JUDGE_API_KEY_VARIABLE } from './judge-endpoint.js';

/** A job named an endpoint this worker does not trust with its API key; the job was not run and no key was sent. */
export class UntrustedEndpointError extends Error {
  /** The codes this class's errors carry (docs/errors.md). */
  static readonly codes = ['PARL_ERR_UNTRUSTED_ENDPOINT'] as const;
  /** The stable code: `PARL_ERR_UNTRUSTED_ENDPOINT` (match on this, never on the message). */
  readonly code = 'PARL_ERR_UNTRUSTED_ENDPOINT';
  /** @param message - one line: the job, its endpoint and how to trust it */
  constructor(message: string) {
    super(message);
    this.name = 'UntrustedEndpointError';
  }
}

import { parseEndpointPrefix } from './endpoint-prefix.js';

export { parseEndpointPrefix };

/**
 * Whether `endpoint` is under one of `prefixes`: the same scheme, host and port, and a path that
 * is the prefix's or continues it after a `/` (so `http://h:8000/v1` trusts `http://h:8000/v1`
 * and `http://h:8000/v1/x`, never `http://h:8000/v10` nor `http://h:8000.evil.example`).
 *
 * @example
 * ```ts
 * endpointTrusted('http://10.0.0.9:8000/v1', ['http://10.0.0.9:8000']); // true
 * ```
 */
export function endpointTrusted(endpoint: string, prefixes: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  const path = url.pathname.replace(/\/+$/, '');
  return prefixes.some((text) => {
    const prefix = new URL(parseEndpointPrefix(text));
    const base = prefix.pathname.replace(/\/+$/, '');
    return url.origin === prefix.origin && (base === '' || path === base || path.startsWith(`${base}/`));
  });
}

/** The API key in `env` (`PARL_API_KEY`, else `OPENAI_API_KEY`), or undefined. */
export function apiKeyIn(env: NodeJS.ProcessEnv): string | undefined {
  return API_KEY_VARIABLES.map((v) => env[v]).find((v) => v !== undefined && v !== '');
}

/** Whether this worker holds any key a job's endpoints could be sent: the orchestrator's, the sub-agents' or the judge's. */
function holdsAnyKey(env: NodeJS.ProcessEnv): boolean {
  return apiKeyIn(env) !== undefined || [SUBAGENT_API_KEY_VARIABLE, JUDGE_API_KEY_VARIABLE].some((v) => env[v] !== undefined && env[v] !== '');
}

/**
 * Check that a job's `endpoint` may be sent this worker's key (the error says "the job": the
 * worker's log line and the coordinator's name which one).
 *
 * @throws {@link UntrustedEndpointError} when the worker holds a key and the endpoint is under none of `prefixes`
 */
export function checkEndpointTrust(endpoint: string | undefined, prefixes: readonly string[], env: NodeJS.ProcessEnv): void {
  if (endpoint === undefined || !holdsAnyKey(env) || endpointTrusted(endpoint, prefixes)) return;
  const trusted = prefixes.length === 0 ? 'it trusts none (start it with --allow-endpoint URL_PREFIX)' : `it trusts ${prefixes.join(', ')}`;
  throw new UntrustedEndpointError(`the job names the endpoint ${endpoint}, which this worker does not trust with its API key (${trusted}): it was not run and no key was sent`);
}
