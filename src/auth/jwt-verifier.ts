import fs from 'node:fs';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify, type JWSHeaderParameters, type FlattenedJWSInput, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { JwtConfig } from '../config/index.js';
import { fail, isIcefrontError } from '../errors/index.js';
import type { Principal } from './principal.js';

export interface JwtVerifier {
  /** The principal a JWT proves; CREDENTIALS_INVALID for any token that does not verify. */
  verify(token: string): Promise<Principal>;
  /** Where keys come from, for the start-up message. */
  readonly keySource: string;
}

/** JWS compact serialisation: three base64url parts (RFC 7515 §7.1); the signature may be empty (`alg: none`). */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export function looksLikeJwt(token: string): boolean {
  return COMPACT_JWS.test(token);
}

/**
 * Verifies JWT bearer tokens (RFC 9068 style access tokens) with jose: the signature against the
 * provider's JWKS (fetched with a timeout, cached, refetched for an unknown `kid` at most every
 * 30 s) or a PEM public key; `alg` only from the configured asymmetric list (so `none` and an
 * HS256 token "signed" with the public key are refused before any key is looked at); `iss`,
 * `aud` and `exp` required and checked (RFC 7519 §4.1), with a small clock tolerance.
 */
export function createJwtVerifier(config: JwtConfig): JwtVerifier {
  const { key, keySource } = keyOf(config);
  const options = {
    issuer: config.issuer,
    audience: [...config.audience],
    algorithms: [...config.algorithms],
    clockTolerance: config.clockToleranceSeconds,
    requiredClaims: ['exp'],
  };
  return {
    keySource,
    async verify(token) {
      let payload: JWTPayload;
      try {
        ({ payload } = typeof key === 'function' ? await jwtVerify(token, key, options) : await jwtVerify(token, key, options));
      } catch (err) {
        if (isIcefrontError(err)) throw err;
        throw fail('CREDENTIALS_INVALID', `Bearer token rejected: ${reasonOf(err)}`);
      }
      const name = claim(payload, config.principalClaim);
      if (typeof name !== 'string' || name === '') throw fail('CREDENTIALS_INVALID', `Bearer token rejected: no ${config.principalClaim} claim naming the caller`);
      return Object.freeze({ name, roles: Object.freeze(rolesOf(config.rolesClaim === undefined ? undefined : claim(payload, config.rolesClaim))), via: 'jwt' as const });
    },
  };
}

function keyOf(config: JwtConfig): { key: KeyObject | JWTVerifyGetKey; keySource: string } {
  if (config.jwksUri !== undefined) {
    const remote = createRemoteJWKSet(new URL(config.jwksUri), {
      timeoutDuration: config.jwksTimeoutMs,
      cacheMaxAge: config.jwksCacheMs,
      cooldownDuration: 30_000,
    });
    // A token naming a key the set lacks is the token's fault (401); a set that cannot be had is
    // the provider's (503), and says nothing about the token.
    const key: JWTVerifyGetKey = async (header: JWSHeaderParameters, token: FlattenedJWSInput) => {
      try {
        return await remote(header, token);
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (code === 'ERR_JWKS_NO_MATCHING_KEY' || code === 'ERR_JWKS_MULTIPLE_MATCHING_KEYS' || code === 'ERR_JOSE_NOT_SUPPORTED') throw err;
        throw fail('IDENTITY_PROVIDER_UNAVAILABLE', 'The identity provider\'s keys (auth.jwt.jwks-uri) could not be fetched', err);
      }
    };
    return { key, keySource: config.jwksUri };
  }
  const file = config.publicKeyFile!;
  let pem: string;
  try {
    pem = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw fail('CONFIG_INVALID', `auth.jwt.public-key-file: cannot read ${file} (${(err as Error).message})`, err);
  }
  if (/PRIVATE KEY/.test(pem)) throw fail('CONFIG_INVALID', `auth.jwt.public-key-file: ${file} holds a private key; give Icefront only the public key`);
  try {
    return { key: createPublicKey(pem), keySource: file };
  } catch (err) {
    throw fail('CONFIG_INVALID', `auth.jwt.public-key-file: ${file} is not a PEM public key or certificate`, err);
  }
}

/** A claim by its name, or else by a dotted path into nested objects (Keycloak's `realm_access.roles`). */
function claim(payload: JWTPayload, name: string): unknown {
  if (name in payload) return payload[name];
  let value: unknown = payload;
  for (const part of name.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Roles from an array of strings or a space-separated string (as `scope`, RFC 8693 §4.2); anything else: none. */
function rolesOf(value: unknown): string[] {
  if (typeof value === 'string') return value.split(/\s+/).filter((r) => r !== '');
  if (Array.isArray(value)) return value.filter((r): r is string => typeof r === 'string' && r !== '');
  return [];
}

/** Why jose refused a token, in words that quote nothing from it. */
function reasonOf(err: unknown): string {
  const e = err as { code?: unknown; claim?: unknown; reason?: unknown };
  switch (e.code) {
    case 'ERR_JWT_EXPIRED':
      return 'it has expired';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      return typeof e.claim === 'string' && /^[a-z]{2,5}$/.test(e.claim) ? `its "${e.claim}" claim is missing or not accepted` : 'a claim is not accepted';
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'its signing algorithm is not accepted';
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return 'it names a key the identity provider does not publish';
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'its signature does not verify';
    default:
      return 'it is malformed or cannot be verified';
  }
}
