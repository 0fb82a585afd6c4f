/**
 * What `--mcp` names: `stdio:COMMAND ARGS…` (a server this process starts, arguments split as a
 * shell would on spaces, with '…' and "…" quoting) or an http(s) URL (a streamable-HTTP server).
 * The one parser of `--mcp` (the option row's and the provider's), and the server's short name
 * for messages (never its whole command line or query: arguments can hold secrets). A tiny
 * module (core only), so that the option table can use it.
 *
 * @module
 */
import { ParlInputError, type OptionParser } from '@parl/core';

/** A parsed `--mcp` value. */
export type McpTarget =
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly shortName: string }
  | { readonly kind: 'http'; readonly url: string; readonly shortName: string };

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** `npx @scope/server`, `node server.mjs`: the command and its first argument that is not a flag, as base names. */
function stdioShortName(command: string, args: readonly string[]): string {
  const first = args.find((a) => !a.startsWith('-') && !a.includes('='));
  const what = first === undefined ? undefined : first.startsWith('@') ? first : baseName(first);
  return what === undefined ? baseName(command) : `${baseName(command)} ${what}`;
}

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
    return { kind: 'stdio', command, args, shortName: stdioShortName(command, args) };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ParlInputError(flag, value, EXPECTED);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ParlInputError(flag, value, EXPECTED);
  return { kind: 'http', url: url.href, shortName: `${url.origin}${url.pathname}` };
}

/** The `--mcp` option row's parser: one server per line (a repeated flag's texts), each checked by {@link mcpTargetOf}. */
export const mcpOption: OptionParser<string[]> = (text, field) =>
  text.split('\n').map((one) => {
    mcpTargetOf(one, field);
    return one;
  });
