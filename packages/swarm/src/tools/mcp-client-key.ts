/**
 * A pre-registered OAuth client's private key (`--mcp-private-key env:VAR`), for `private_key_jwt`
 * client authentication (RFC 7523 §2.2, the MCP authorization extension SEP-1046): the PEM the
 * variable holds (PKCS#8, or SEC1 for an EC key, PKCS#1 for an RSA one) read by Node's crypto,
 * and the signing algorithm its type implies. The key never appears in an error.
 *
 * @module
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { ParlInputError } from '@parl/core';

/** A client's private key, ready to sign its assertions. */
export interface ClientKey {
  /** The key as PKCS#8 PEM (what the MCP SDK's signer imports). */
  readonly pkcs8: string;
  /** The JWS algorithm: ES256, ES384 or ES512 for an EC key on P-256, P-384 or P-521; RS256 for RSA. */
  readonly algorithm: 'ES256' | 'ES384' | 'ES512' | 'RS256';
}

const CURVES: Readonly<Record<string, ClientKey['algorithm']>> = { prime256v1: 'ES256', 'P-256': 'ES256', secp384r1: 'ES384', 'P-384': 'ES384', secp521r1: 'ES512', 'P-521': 'ES512' };

/** The algorithm `key` signs with, or undefined for a key type no JWS algorithm here takes. */
function algorithmOf(key: KeyObject): ClientKey['algorithm'] | undefined {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') return CURVES[key.asymmetricKeyDetails?.namedCurve ?? ''];
  return undefined;
}

/**
 * The client key in `pem` (the variable's value), checked.
 *
 * @param pem - the PEM text
 * @param field - the flag in errors (`--mcp-private-key`)
 * @param shown - what errors show for the value (`env:VAR`, never the key)
 * @throws ParlInputError naming `field` and `shown` when `pem` is not a private key, or one of a type that cannot sign a JWT here
 * @example
 * ```ts
 * import { generateKeyPairSync } from 'node:crypto';
 * const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
 * clientKeyFrom(privateKey.export({ type: 'sec1', format: 'pem' }).toString(), '--mcp-private-key', 'env:KEY').algorithm; // "ES256"
 * clientKeyFrom('not a key', '--mcp-private-key', 'env:KEY');
 * // throws: --mcp-private-key must be
 * ```
 */
export function clientKeyFrom(pem: string, field: string, shown: string): ClientKey {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new ParlInputError(field, shown, 'an environment variable holding a private key in PEM (PKCS#8, SEC1 EC or PKCS#1 RSA), unencrypted');
  }
  const algorithm = algorithmOf(key);
  if (algorithm === undefined) {
    const type = key.asymmetricKeyType === 'ec' ? `an EC key on ${key.asymmetricKeyDetails?.namedCurve ?? 'an unknown curve'}` : `a key of type ${key.asymmetricKeyType ?? 'unknown'}`;
    throw new ParlInputError(field, shown, `an RSA key or an EC key on P-256, P-384 or P-521 (its variable holds ${type})`);
  }
  return { pkcs8: key.export({ type: 'pkcs8', format: 'pem' }).toString(), algorithm };
}
