/**
 * Text for the trace report's HTML: escaping, numbers and capped labels.
 *
 * @module
 */

/** Text escaped for HTML element content and double- or single-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'));
}

/** At most `max` characters of `text` (an ellipsis marks a cut), so that one label cannot grow the page without bound. */
export function capText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A number as the report prints it: at most three decimals, no trailing zeros, thousands grouped. */
export function formatNumber(value: number): string {
  const rounded = Math.round(value * 1000) / 1000;
  const [whole = '0', frac] = Math.abs(rounded).toString().split('.');
  const grouped = whole.length > 15 ? whole : whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${rounded < 0 ? '−' : ''}${grouped}${frac === undefined ? '' : `.${frac}`}`;
}

/** `n word` or `n words`. */
export function plural(n: number, word: string): string {
  return `${formatNumber(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** A percentage with at most one decimal. */
export function percent(part: number, whole: number): string {
  return whole === 0 ? '0%' : `${formatNumber(Math.round((1000 * part) / whole) / 10)}%`;
}
