/**
 * An `--allow-endpoint` value read and normalised: the prefix of the endpoints a `parl worker`
 * sends its API key to (`endpoint-trust.ts`). A tiny module (core only), so that the worker's
 * option rows (`worker-rollout-options.ts`) never load the model clients.
 *
 * @module
 */
import { ParlInputError } from '@parl/core';

/** What an `--allow-endpoint` must look like, in words. */
const EXPECTED = 'an http(s) URL prefix such as https://api.example.com/v1 (no query or fragment)';

/**
 * Read an `--allow-endpoint` value: an http(s) URL, the prefix endpoints must start with (its path
 * matched whole segments at a time). Returns it normalised.
 *
 * @throws {@link @parl/core!ParlInputError} naming `field` for anything else
 *
 * @example
 * ```ts
 * parseEndpointPrefix('http://10.0.0.9:8000/v1/'); // 'http://10.0.0.9:8000/v1'
 * ```
 */
export function parseEndpointPrefix(text: string, field = '--allow-endpoint'): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ParlInputError(field, text, EXPECTED);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ParlInputError(field, text, EXPECTED);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
