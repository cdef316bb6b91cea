import type { Config } from '../config/index.js';

/**
 * What Icefront tells its operator at start-up about who may come in. Without an `auth` block it
 * says plainly that every caller is trusted, and which upstream identities that lends out.
 */
export function describeAuth(config: Config): string[] {
  const auth = config.auth;
  const lending = [...config.catalogs.values()].filter((c) => c.type === 'rest' && c.auth.mode !== 'forward').map((c) => c.name);
  if (auth === undefined) {
    return [
      'Authentication is OFF (the config has no auth block): every caller who can reach this port is trusted with every catalog' +
        (lending.length > 0 ? `, including Icefront's own upstream identity for ${lending.join(', ')}.` : '.'),
    ];
  }
  const ways = [
    ...(auth.tokens.length > 0 ? [`${auth.tokens.length} static token${auth.tokens.length === 1 ? '' : 's'}`] : []),
    ...(auth.jwt ? [`JWTs from ${auth.jwt.issuer} (audience ${auth.jwt.audience.join(', ')})`] : []),
  ];
  return [
    `Authentication is on: bearer tokens only (${ways.join('; ')}); ${auth.allow.length} allow rule${auth.allow.length === 1 ? '' : 's'}, no match is a 403.`,
    auth.adminRoles.length > 0
      ? `/metrics and the status page (/) are for roles: ${auth.adminRoles.join(', ')}.`
      : '/metrics and the status page (/) are refused to every caller (no auth.admin-roles).',
  ];
}
