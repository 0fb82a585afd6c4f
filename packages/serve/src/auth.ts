/**
 * Bearer-token auth: every request but the probes (`/healthz`, `/readyz`) carries
 * `Authorization: Bearer <token>`; the dashboard (`/`, `/events`) may pass it as `?token=`,
 * since a browser cannot set the header on a page or an `EventSource`.
 *
 * @module
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { wantsHtml } from './accepts-html.js';

const OPEN_PATHS = new Set(['/healthz', '/readyz']);
const QUERY_TOKEN_PATHS = new Set(['/', '/events']);
/** One episode's page (a browser's `GET /v1/episodes/{id}`, Accept: text/html) may carry the token in the query too. */
const EPISODE_PAGE = /^\/v1\/episodes\/[^/]+$/;

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** True when the request may go on: no token configured, an open path, or the right token. */
export function authorized(request: Pick<FastifyRequest, 'url' | 'headers' | 'method'>, token: string | undefined): boolean {
  if (token === undefined) return true;
  const q = request.url.indexOf('?');
  const path = q < 0 ? request.url : request.url.slice(0, q);
  if (OPEN_PATHS.has(path)) return true;
  let given: string | undefined;
  const header = request.headers.authorization;
  if (typeof header === 'string' && /^bearer\s+/i.test(header)) given = header.replace(/^bearer\s+/i, '').trim();
  if (given === undefined && request.method === 'GET' && (QUERY_TOKEN_PATHS.has(path) || (EPISODE_PAGE.test(path) && wantsHtml(request.headers.accept))) && q >= 0) {
    given = new URLSearchParams(request.url.slice(q + 1)).get('token') ?? undefined;
  }
  // Compare digests: equal length, constant time.
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}
