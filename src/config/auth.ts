/**
 * The `auth` block: its JSON Schema and its validated, frozen form. Checks a schema cannot say
 * well (one key source, no duplicate token, a rule that names somebody) are made here, and name
 * the key and its line like every other config error.
 */
import path from 'node:path';
import type { Report } from './problems.js';
import type { Access, AllowRule, AuthConfig, JwtConfig, StaticTokenConfig } from './types.js';

/** JWS algorithms with a public verification key (RFC 7518 §3, RFC 8037): never HS*, never `none`. */
export const ASYMMETRIC_JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'] as const;

export const AUTH_DEFAULTS = {
  principalClaim: 'sub',
  clockToleranceSeconds: 30,
  jwksTimeoutMs: 5000,
  jwksCacheMs: 10 * 60_000,
} as const;

const name = { type: 'string', minLength: 1 } as const;
const names = { type: 'array', minItems: 1, items: name } as const;
const url = { type: 'string', pattern: '^https?://[^\\s]+$' } as const;

export const AUTH_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    tokens: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['sha256', 'principal'],
        properties: {
          sha256: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' },
          principal: name,
          roles: { type: 'array', items: name },
        },
      },
    },
    jwt: {
      type: 'object',
      additionalProperties: false,
      required: ['issuer', 'audience'],
      properties: {
        'jwks-uri': url,
        'public-key-file': name,
        issuer: name,
        audience: { anyOf: [name, names] },
        'principal-claim': name,
        'roles-claim': name,
        algorithms: { type: 'array', minItems: 1, items: { enum: [...ASYMMETRIC_JWT_ALGORITHMS] } },
        'token-endpoint': url,
        'clock-tolerance-seconds': { type: 'integer', minimum: 0, maximum: 600 },
        'jwks-timeout-ms': { type: 'integer', minimum: 100, maximum: 60000 },
        'jwks-cache-ms': { type: 'integer', minimum: 1000 },
      },
    },
    allow: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['catalogs'],
        properties: {
          principals: names,
          roles: names,
          catalogs: names,
          namespaces: { type: 'array', minItems: 1, items: { anyOf: [name, names] } },
          access: { enum: ['read', 'write'] },
        },
      },
    },
    'admin-roles': { type: 'array', items: name },
    limits: {
      type: 'object',
      additionalProperties: false,
      properties: {
        'requests-per-second': { type: 'number', exclusiveMinimum: 0, maximum: 1000000 },
        burst: { type: 'integer', minimum: 1, maximum: 10000000 },
        'max-in-flight': { type: 'integer', minimum: 1, maximum: 1000000 },
      },
    },
  },
} as const;

export interface RawAuth {
  tokens?: { sha256: string; principal: string; roles?: string[] }[];
  jwt?: {
    'jwks-uri'?: string;
    'public-key-file'?: string;
    issuer: string;
    audience: string | string[];
    'principal-claim'?: string;
    'roles-claim'?: string;
    algorithms?: string[];
    'token-endpoint'?: string;
    'clock-tolerance-seconds'?: number;
    'jwks-timeout-ms'?: number;
    'jwks-cache-ms'?: number;
  };
  allow?: { principals?: string[]; roles?: string[]; catalogs: string[]; namespaces?: (string | string[])[]; access?: Access }[];
  'admin-roles'?: string[];
  limits?: { 'requests-per-second'?: number; burst?: number; 'max-in-flight'?: number };
}

/** The block, frozen; each check it fails is reported (all of them), and what it returns is then discarded. */
export function buildAuth(raw: RawAuth, base: string, report: Report): AuthConfig {
  const tokens = buildTokens(raw.tokens ?? [], report);
  const jwt = raw.jwt && buildJwt(raw.jwt, base, report);
  if (tokens.length === 0 && jwt === undefined)
    report(['auth'], 'needs tokens or jwt: with neither, no caller could ever come in');
  return Object.freeze({
    tokens: Object.freeze(tokens),
    ...(jwt && { jwt }),
    allow: Object.freeze((raw.allow ?? []).map((rule, i) => buildRule(rule, i, report))),
    adminRoles: Object.freeze([...(raw['admin-roles'] ?? [])]),
    ...(raw.limits && {
      limits: Object.freeze({
        ...(raw.limits['requests-per-second'] !== undefined && { requestsPerSecond: raw.limits['requests-per-second'] }),
        ...(raw.limits.burst !== undefined && { burst: raw.limits.burst }),
        ...(raw.limits['max-in-flight'] !== undefined && { maxInFlight: raw.limits['max-in-flight'] }),
      }),
    }),
  });
}

function buildTokens(raw: NonNullable<RawAuth['tokens']>, report: Report): StaticTokenConfig[] {
  const seen = new Set<string>();
  return raw.map((token, i) => {
    const sha256 = token.sha256.toLowerCase();
    if (seen.has(sha256)) report(['auth', 'tokens', i, 'sha256'], 'the same token is listed twice (which principal would it be?)');
    seen.add(sha256);
    return Object.freeze({ sha256, principal: token.principal, roles: Object.freeze([...(token.roles ?? [])]) });
  });
}

function buildJwt(raw: NonNullable<RawAuth['jwt']>, base: string, report: Report): JwtConfig {
  const at = (key: string) => ['auth', 'jwt', key];
  const jwksUri = raw['jwks-uri'];
  const keyFile = raw['public-key-file'];
  if ((jwksUri === undefined) === (keyFile === undefined)) report(['auth', 'jwt'], 'needs exactly one of jwks-uri and public-key-file');
  // Keys fetched over plain HTTP could be swapped by anyone on the path: https, or this machine.
  if (jwksUri !== undefined && !jwksUri.toLowerCase().startsWith('https://') && !isLoopback(jwksUri))
    report(at('jwks-uri'), 'must be https:// (plain http only to this machine: 127.0.0.1, ::1, localhost)');
  // Icefront relays clients' credentials there (POST /v1/oauth/tokens): the same rule.
  const tokenEndpoint = raw['token-endpoint'];
  if (tokenEndpoint !== undefined && !tokenEndpoint.toLowerCase().startsWith('https://') && !isLoopback(tokenEndpoint))
    report(at('token-endpoint'), 'must be https:// (plain http only to this machine: 127.0.0.1, ::1, localhost)');
  return Object.freeze({
    ...(jwksUri !== undefined && { jwksUri }),
    ...(keyFile !== undefined && { publicKeyFile: path.resolve(base, keyFile) }),
    issuer: raw.issuer,
    audience: Object.freeze(typeof raw.audience === 'string' ? [raw.audience] : [...raw.audience]),
    principalClaim: raw['principal-claim'] ?? AUTH_DEFAULTS.principalClaim,
    ...(raw['roles-claim'] !== undefined && { rolesClaim: raw['roles-claim'] }),
    algorithms: Object.freeze([...(raw.algorithms ?? ASYMMETRIC_JWT_ALGORITHMS)]),
    ...(raw['token-endpoint'] !== undefined && { tokenEndpoint: raw['token-endpoint'] }),
    clockToleranceSeconds: raw['clock-tolerance-seconds'] ?? AUTH_DEFAULTS.clockToleranceSeconds,
    jwksTimeoutMs: raw['jwks-timeout-ms'] ?? AUTH_DEFAULTS.jwksTimeoutMs,
    jwksCacheMs: raw['jwks-cache-ms'] ?? AUTH_DEFAULTS.jwksCacheMs,
  });
}

function buildRule(raw: NonNullable<RawAuth['allow']>[number], i: number, report: Report): AllowRule {
  if (raw.principals === undefined && raw.roles === undefined)
    report(['auth', 'allow', i], 'names nobody: give principals, roles or both');
  const namespaces = raw.namespaces?.map((entry, j) => {
    // `sales.eu` is two levels; a level that itself holds a dot is written as a list: [odd.name, x]
    const levels = typeof entry === 'string' ? entry.split('.') : [...entry];
    if (levels.some((level) => level === '' || level === '*'))
      report(['auth', 'allow', i, 'namespaces', j], 'has an empty or "*" level (leave namespaces out to mean the whole catalog)');
    return Object.freeze(levels);
  });
  return Object.freeze({
    principals: Object.freeze([...(raw.principals ?? [])]),
    roles: Object.freeze([...(raw.roles ?? [])]),
    catalogs: Object.freeze([...raw.catalogs]),
    ...(namespaces && { namespaces: Object.freeze(namespaces) }),
    access: raw.access ?? 'read',
  });
}

function isLoopback(uri: string): boolean {
  try {
    const host = new URL(uri).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}
