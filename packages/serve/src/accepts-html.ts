/**
 * Content negotiation between the API's JSON and a page for a browser, on the `Accept` header.
 *
 * @module
 */

/** The quality (`q`) an `Accept` header gives `type` by an entry naming it exactly; 0 when none does. */
function qualityOf(accept: string, type: string): number {
  let best = 0;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (range !== type) continue;
    const q = params.find((p) => p.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    if (Number.isFinite(value) && value > best) best = value;
  }
  return best;
}

/**
 * True when the client asked for HTML rather than JSON: `text/html` named in `Accept` with a
 * higher quality than `application/json` (a browser's navigation). `*\/*` alone (curl, fetch)
 * and no header get JSON, the API's answer.
 */
export function wantsHtml(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const html = qualityOf(accept, 'text/html');
  return html > 0 && html > qualityOf(accept, 'application/json');
}
