/**
 * The credentials a run hands its MCP servers (spec §10.3): headers for HTTP servers
 * (`--mcp-header 'NAME: VALUE'`, `VALUE` may be `env:VAR`), environment variables forwarded to
 * stdio servers (`--mcp-env NAME`) and a pre-registered OAuth client's secret
 * (`--mcp-client-secret env:VAR`) or private key (`--mcp-private-key env:VAR`). The option rows' parsers check the shape only; the values are
 * read from the environment when a server is started, and a value never appears in an error (an
 * error names the header or the variable, never what it holds). A tiny module (core only), so
 * that the option table can use its parsers.
 *
 * @module
 */
import { ParlInputError, type OptionParser } from '@parl/core';

/** The prefix of a value read from the environment: `env:VAR`. */
export const ENV_PREFIX = 'env:';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// A header value's last word `env:VAR` (`Bearer env:TOKEN`) is read from the environment.
const ENV_WORD = /(^|\s)env:(\S*)$/;
// RFC 9110's token: the characters a header name may hold.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** What a header's text is, for errors: its name only (its value may be a secret). */
function headerShown(line: string): string {
  const colon = line.indexOf(':');
  return colon < 0 ? '(no NAME: in it)' : `${line.slice(0, colon).trim()}: …`;
}

/**
 * `--mcp-header`: one `NAME: VALUE` per line (a repeated flag's texts), `VALUE` literal, or
 * ending in `env:VAR` (`Bearer env:TOKEN`), which is read from the environment. An error shows
 * the header's name, never its value.
 */
export const mcpHeaderOption: OptionParser<string[]> = (text, field) =>
  text.split('\n').map((line) => {
    const colon = line.indexOf(':');
    const name = colon < 0 ? '' : line.slice(0, colon).trim();
    const value = colon < 0 ? '' : line.slice(colon + 1).trim();
    if (!HEADER_NAME.test(name) || value === '') {
      throw new ParlInputError(field, headerShown(line), "a header 'NAME: VALUE' (VALUE may be env:VAR to read it from the environment variable VAR)");
    }
    const word = ENV_WORD.exec(value);
    if (word !== null && !ENV_NAME.test(word[2] ?? '')) {
      throw new ParlInputError(field, headerShown(line), `a header 'NAME: env:VAR' or 'NAME: TEXT env:VAR' naming an environment variable (letters, digits and _)`);
    }
    return `${name}: ${value}`;
  });

/** `--mcp-env`: one environment variable name per line. */
export const mcpEnvOption: OptionParser<string[]> = (text, field) =>
  text.split('\n').map((name) => {
    if (!ENV_NAME.test(name)) throw new ParlInputError(field, name, 'the name of an environment variable to forward to stdio MCP servers (letters, digits and _; not its value)');
    return name;
  });

/** A parser of `env:VAR` only, for a secret (one typed on a command line is in the process list); `what` names what VAR holds. */
function secretInEnvironment(what: string): OptionParser<string> {
  return (text, field) => {
    if (!text.startsWith(ENV_PREFIX) || !ENV_NAME.test(text.slice(ENV_PREFIX.length))) {
      throw new ParlInputError(field, text.startsWith(ENV_PREFIX) ? text : '(a literal secret, not shown)', `env:VAR, the environment variable that holds ${what} (a secret on the command line is visible to every user of the machine)`);
    }
    return text;
  };
}

/** `--mcp-client-secret`: `env:VAR` only (a secret typed on a command line is in the process list). */
export const mcpClientSecretOption: OptionParser<string> = secretInEnvironment('the client secret');

/** `--mcp-private-key`: `env:VAR` only, VAR holding the client's private key in PEM. */
export const mcpPrivateKeyOption: OptionParser<string> = secretInEnvironment("the client's private key (PEM)");

/** The variables a run reads values from (default `process.env`). */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The value `text` stands for: the variable's value for `env:VAR`, else `text` itself.
 *
 * @throws ParlInputError naming `field` and `env:VAR` (never a value) when VAR is not set or empty
 */
export function valueFrom(text: string, field: string, env: Environment): string {
  if (!text.startsWith(ENV_PREFIX)) return text;
  const name = text.slice(ENV_PREFIX.length);
  const value = env[name];
  if (value === undefined || value === '') throw new ParlInputError(field, text, `env:VAR naming an environment variable that is set (${name} is not set or empty)`);
  return value;
}

/**
 * The headers `lines` (`NAME: VALUE`, as {@link mcpHeaderOption} returns them) give, a value's
 * last word `env:VAR` read from `env`.
 *
 * @throws ParlInputError naming the header and `env:VAR` (never a value) when a variable is not set
 */
export function headersFrom(lines: readonly string[], field: string, env: Environment): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    const word = ENV_WORD.exec(value);
    if (word === null) {
      headers[name] = value;
      continue;
    }
    const variable = `${ENV_PREFIX}${word[2] ?? ''}`;
    try {
      headers[name] = `${value.slice(0, word.index)}${word[1] ?? ''}${valueFrom(variable, field, env)}`;
    } catch (err) {
      throw new ParlInputError(field, `${name}: ${variable}`, (err as ParlInputError).expected);
    }
  }
  return headers;
}

/**
 * The variables `names` forwards to a stdio server, read from `env`.
 *
 * @throws ParlInputError naming the variable (never a value) when it is not set
 */
export function forwardedEnvironment(names: readonly string[], field: string, env: Environment): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (value === undefined) throw new ParlInputError(field, name, `an environment variable that is set, to forward to stdio MCP servers (${name} is not set)`);
    out[name] = value;
  }
  return out;
}
