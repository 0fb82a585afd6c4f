/**
 * OAuth for an HTTP MCP server, as the MCP authorization specification describes it, for a client
 * with no person at a browser. The MCP SDK's transport does the protocol (protected-resource and
 * authorization-server metadata discovery, scopes from `WWW-Authenticate` or `scopes_supported`,
 * dynamic client registration, PKCE, the token endpoint's auth methods, refresh when a token is
 * refused); this provider holds what it learns, in memory only, and decides the two things a
 * headless client must:
 * - with a pre-registered client's secret (`--mcp-client-id`, `--mcp-client-secret`) or private
 *   key (`--mcp-private-key`: the client authenticates with a JWT it signs, `private_key_jwt`) and
 *   an authorization server that offers the `client_credentials` grant, that grant;
 * - otherwise the authorization-code flow, followed without a browser: the authorization URL is
 *   requested and, when the server answers at once with a redirect carrying the code (a server
 *   that approves this client without asking anyone), the code is exchanged. A server that wants
 *   a person to log in or approve is refused with one line saying how to pass a token obtained
 *   elsewhere.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { AddClientAuthentication, OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { ClientKey } from './mcp-client-key.js';

/**
 * Where the authorization server is told to send the code. Nothing listens there: the redirect is
 * read from the authorization server's answer, never followed.
 */
export const HEADLESS_REDIRECT_URL = 'http://127.0.0.1/parl-swarm/oauth/callback';

/** The authorization server wants a person at a browser: the run cannot authorize itself. */
export class BrowserAuthorizationNeeded extends Error {
  constructor() {
    super(
      "its authorization server wants a person to approve in a browser, which this run cannot do; get a token elsewhere (the server's own docs say how) and pass it as --mcp-header 'Authorization: Bearer env:VAR', or register a client and pass --mcp-client-id ID --mcp-client-secret env:VAR",
    );
    this.name = 'BrowserAuthorizationNeeded';
  }
}

/** A pre-registered client. */
export interface PreRegisteredClient {
  /** Its client id. */
  readonly clientId: string;
  /** Its secret (already read from the environment), if it has one. */
  readonly clientSecret?: string | undefined;
  /** Its private key (already read and checked), if it authenticates with a signed JWT instead. */
  readonly privateKey?: ClientKey | undefined;
}

/** The in-memory OAuth client of one MCP server (see the module's description). */
export class HeadlessOAuthProvider implements OAuthClientProvider {
  private client: OAuthClientInformationMixed | undefined;
  private heldTokens: OAuthTokens | undefined;
  private verifier = '';
  private discovery: OAuthDiscoveryState | undefined;
  private readonly expectedState = randomBytes(16).toString('hex');
  /** The authorization code read from the authorization server's redirect, until it is exchanged. */
  pendingCode: string | undefined;
  /** With a private key: signs the client's assertion into each token request (the SDK calls it in place of a secret). */
  readonly addClientAuthentication?: AddClientAuthentication;

  /** @param preRegistered - the client given by `--mcp-client-id` / `--mcp-client-secret`, if any */
  constructor(private readonly preRegistered: PreRegisteredClient | undefined) {
    if (preRegistered !== undefined) {
      this.client = { client_id: preRegistered.clientId, ...(preRegistered.clientSecret === undefined ? {} : { client_secret: preRegistered.clientSecret }) };
      const key = preRegistered.privateKey;
      if (key !== undefined) {
        // iss and sub are the client id; aud the authorization server's issuer (the SDK's default).
        this.addClientAuthentication = createPrivateKeyJwtAuth({ issuer: preRegistered.clientId, subject: preRegistered.clientId, privateKey: key.pkcs8, alg: key.algorithm });
      }
    }
  }

  /** Whether the pre-registered client has a secret or a key to authenticate with. */
  private get authenticates(): boolean {
    return this.preRegistered?.clientSecret !== undefined || this.preRegistered?.privateKey !== undefined;
  }

  /** Whether the client-credentials grant is used: a secret or a key, and an authorization server that offers it. */
  private get clientCredentials(): boolean {
    const grants = this.discovery?.authorizationServerMetadata?.grant_types_supported;
    return this.authenticates && grants !== undefined && grants.includes('client_credentials');
  }

  get redirectUrl(): string | undefined {
    return this.clientCredentials ? undefined : HEADLESS_REDIRECT_URL;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'parl swarm',
      redirect_uris: [HEADLESS_REDIRECT_URL],
      grant_types: this.clientCredentials ? ['client_credentials'] : ['authorization_code', 'refresh_token'],
      response_types: this.clientCredentials ? [] : ['code'],
      token_endpoint_auth_method: this.preRegistered?.privateKey !== undefined ? 'private_key_jwt' : this.preRegistered?.clientSecret === undefined ? 'none' : 'client_secret_basic',
    };
  }

  state(): string {
    return this.expectedState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }

  tokens(): OAuthTokens | undefined {
    return this.heldTokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.heldTokens = tokens;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.heldTokens = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = '';
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
    // A pre-registered client cannot be registered again: it stays.
    if ((scope === 'all' || scope === 'client') && this.preRegistered === undefined) this.client = undefined;
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (!this.clientCredentials) return undefined;
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope !== undefined && scope !== '') params.set('scope', scope);
    return params;
  }

  /**
   * Follow the authorization URL without a browser: a redirect to our callback with the code (and
   * our state) is an approval; anything else (a login page) needs a person.
   *
   * @throws BrowserAuthorizationNeeded
   */
  async redirectToAuthorization(url: URL): Promise<void> {
    let response: Response;
    try {
      response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(30_000) });
    } catch {
      throw new BrowserAuthorizationNeeded();
    }
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) throw new BrowserAuthorizationNeeded();
    const target = new URL(location, url);
    const code = target.searchParams.get('code');
    if (`${target.origin}${target.pathname}` !== HEADLESS_REDIRECT_URL || code === null || target.searchParams.get('state') !== this.expectedState) {
      throw new BrowserAuthorizationNeeded();
    }
    this.pendingCode = code;
  }
}
