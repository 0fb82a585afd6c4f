/**
 * What `--mcp` names: `stdio:COMMAND ARGS…` (a server this process starts, arguments split as a
 * shell would on spaces, with '…' and "…" quoting) or an http(s) URL (a streamable-HTTP server).
 *
 * @module
 */
import { ParlInputError } from '@parl/core';

/** A parsed `--mcp` value. */
export type McpTarget =
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[] }
  | { readonly kind: 'http'; readonly url: string };

const EXPECTED = 'stdio:COMMAND ARGS… (a server to start) or an http(s):// URL (a streamable-HTTP MCP server)';

function words(text: string, flag: string, value: string): string[] {
  const out: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (const ch of text) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) out.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote !== undefined) throw new ParlInputError(flag, value, `${EXPECTED}; a ${quote} quote is not closed`);
  if (inWord) out.push(word);
  return out;
}

/** Parse one `--mcp` value. @throws ParlInputError naming `flag` and the value */
export function mcpTargetOf(value: string, flag = '--mcp'): McpTarget {
  if (value.startsWith('stdio:')) {
    const [command, ...args] = words(value.slice('stdio:'.length), flag, value);
    if (command === undefined) throw new ParlInputError(flag, value, `${EXPECTED}; the command is missing`);
    return { kind: 'stdio', command, args };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ParlInputError(flag, value, EXPECTED);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ParlInputError(flag, value, EXPECTED);
  return { kind: 'http', url: url.href };
}
