/**
 * The option rows of a run's own tools (spec §10.3), declared once: a `--tools` module and the
 * `--mcp` servers with their credentials (`--mcp-header`, `--mcp-env`, `--mcp-client-id`,
 * `--mcp-client-secret`, `--mcp-private-key`). `parl swarm run` and `parl swarm eval` take them
 * ({@link SWARM_RUN_OPTIONS} spreads them), `parl worker` takes them (the CLI adds them to the
 * worker's flags when `@parl/swarm` is installed: `@parl/io`, which owns the worker's queue rows,
 * never loads swarm) and `SwarmAgent`'s MCP settings are these rows' keys. A tiny module (core
 * only), so that help never loads the AI SDK or an MCP client.
 *
 * @module
 */
import { defineOptionTable, nonEmptyTextOption, type ResolvedOptions } from '@parl/core';
import { mcpClientSecretOption, mcpEnvOption, mcpHeaderOption, mcpPrivateKeyOption } from './mcp-credentials.js';
import { mcpOption } from './mcp-target.js';

/**
 * The MCP rows: the servers and what they are given (headers, forwarded variables, an OAuth
 * client). Their values are read from the environment when a server starts, never shown.
 *
 * @example
 * ```ts
 * import { resolveOptions } from '@parl/core';
 * resolveOptions(MCP_OPTIONS, { mcp: 'http://127.0.0.1:3001/mcp', 'mcp-header': 'Authorization: Bearer env:TOKEN' }, 'flag').mcpHeader;
 * // ['Authorization: Bearer env:TOKEN']
 * ```
 */
export const MCP_OPTIONS = defineOptionTable({
  mcp: { flag: 'mcp', arg: 'SERVER', parse: mcpOption, repeatable: true, help: 'an MCP server whose tools are added to the task\'s tools: stdio:COMMAND ARGS… (started here) or an http(s):// URL (streamable HTTP); repeatable' },
  mcpHeader: {
    flag: 'mcp-header',
    arg: 'HEADER',
    parse: mcpHeaderOption,
    repeatable: true,
    help: 'a header NAME: VALUE sent to every HTTP --mcp server (an API key, a bearer token: \'Authorization: Bearer env:TOKEN\'); VALUE may be env:VAR to read it from the environment, so it is on no command line, file, span or error; repeatable',
  },
  mcpEnv: { flag: 'mcp-env', arg: 'NAME', parse: mcpEnvOption, repeatable: true, help: 'an environment variable forwarded (by name; its value from this process) to every stdio --mcp server, which otherwise gets only HOME, LOGNAME, PATH, SHELL, TERM and USER; repeatable' },
  mcpClientId: { flag: 'mcp-client-id', arg: 'ID', parse: nonEmptyTextOption, help: 'the OAuth client id registered for the HTTP --mcp servers (else a client is registered dynamically where the authorization server allows it)' },
  mcpClientSecret: { flag: 'mcp-client-secret', arg: 'env:VAR', parse: mcpClientSecretOption, needs: 'mcpClientId', help: 'the environment variable holding that client\'s secret (the client-credentials grant where the authorization server offers it)' },
  mcpPrivateKey: {
    flag: 'mcp-private-key',
    arg: 'env:VAR',
    parse: mcpPrivateKeyOption,
    needs: 'mcpClientId',
    conflicts: 'mcpClientSecret',
    help: 'the environment variable holding that client\'s private key, PEM (instead of a secret: the client signs a JWT, private_key_jwt; ES256/ES384/ES512 for an EC key, RS256 for an RSA one)',
  },
});

/** The keys of the MCP servers' credentials among {@link MCP_OPTIONS} (every row but the servers): what reaches a connection, and what no file records. */
export const MCP_CREDENTIAL_KEYS = Object.keys(MCP_OPTIONS).filter((key) => key !== 'mcp') as readonly McpCredentialKey[];

/** A key of {@link MCP_CREDENTIAL_KEYS}. */
export type McpCredentialKey = Exclude<keyof typeof MCP_OPTIONS, 'mcp'>;

/** The MCP credentials of a run's options, as a connection takes them. */
export type McpCredentials = Partial<Pick<ResolvedOptions<typeof MCP_OPTIONS>, McpCredentialKey>>;

/** The MCP credentials among `options` (and nothing else). */
export function mcpCredentialsOf(options: McpCredentials): McpCredentials {
  const picked: Record<string, unknown> = {};
  for (const key of MCP_CREDENTIAL_KEYS) if (options[key] !== undefined) picked[key] = options[key];
  return picked as McpCredentials;
}

/**
 * A run's own tools: the `--tools` module and the {@link MCP_OPTIONS} rows, the rows `parl swarm
 * run`, `parl swarm eval` and `parl worker` share.
 *
 * @example
 * ```ts
 * import { resolveOptions } from '@parl/core';
 * resolveOptions(RUN_TOOL_OPTIONS, { tools: './tools.mjs', mcp: 'stdio:node server.mjs' }, 'flag').mcp; // ['stdio:node server.mjs']
 * ```
 */
export const RUN_TOOL_OPTIONS = defineOptionTable({
  tools: { flag: 'tools', arg: 'FILE', parse: nonEmptyTextOption, help: 'a module whose exports are AI SDK tools (tool({ description, inputSchema, execute }), zod or JSON schemas, async allowed), added to the task\'s tools' },
  ...MCP_OPTIONS,
});

/** The settings of {@link RUN_TOOL_OPTIONS}, resolved (what `parl worker` passes on to open its tools). */
export type RunToolSettings = ResolvedOptions<typeof RUN_TOOL_OPTIONS>;

/**
 * The MCP servers a `SwarmAgent` starts itself: the rows `parl swarm run` and `parl worker` take
 * (`mcp` and the credentials' keys, `MCP_CREDENTIAL_KEYS`; `MCP_OPTIONS` of `@parl/swarm/options`).
 */
export type McpSettings = Partial<ResolvedOptions<typeof MCP_OPTIONS>>;
