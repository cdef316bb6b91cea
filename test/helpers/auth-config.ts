/** Builders for tests with authentication on: static tokens, rules, and a warehouse with nested namespaces. */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AllowRule, AuthConfig, CatalogConfig, Config } from '../../src/config/index.js';
import { testConfig } from './config.js';

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Static tokens by principal; each test's token text is unique enough to search logs for. */
export const TOKENS = {
  alice: 'tok-alice-7c1e9a3f5b',
  bob: 'tok-bob-2d4f6a8c0e',
  writer: 'tok-writer-9b8a7c6d5e',
  admin: 'tok-admin-1a2b3c4d5e',
  ops: 'tok-ops-5e4d3c2b1a',
  carol: 'tok-carol-0f9e8d7c6b',
} as const;

export const bearer = (who: keyof typeof TOKENS): Record<string, string> => ({ authorization: `Bearer ${TOKENS[who]}` });

const rule = (r: Partial<AllowRule> & Pick<AllowRule, 'catalogs'>): AllowRule => ({ principals: [], roles: [], access: 'read', ...r });

/**
 * alice (role analyst) reads demo's sales.eu and below; bob reads demo's events; writer writes
 * demo's sales.eu; admin writes everything; ops reads /metrics only; carol may do nothing.
 */
export function authConfig(extra: Partial<AuthConfig> = {}): AuthConfig {
  return {
    tokens: [
      { sha256: sha256(TOKENS.alice), principal: 'alice', roles: ['analyst'] },
      { sha256: sha256(TOKENS.bob), principal: 'bob', roles: [] },
      { sha256: sha256(TOKENS.writer), principal: 'writer', roles: [] },
      { sha256: sha256(TOKENS.admin), principal: 'admin', roles: [] },
      { sha256: sha256(TOKENS.ops), principal: 'prometheus', roles: ['ops'] },
      { sha256: sha256(TOKENS.carol), principal: 'carol', roles: [] },
    ],
    allow: [
      rule({ roles: ['analyst'], catalogs: ['demo', 'up'], namespaces: [['sales', 'eu']] }),
      rule({ principals: ['bob'], catalogs: ['demo', 'up'], namespaces: [['events']] }),
      rule({ principals: ['writer'], catalogs: ['demo', 'up'], namespaces: [['sales', 'eu']], access: 'write' }),
      rule({ principals: ['admin'], catalogs: ['*'], access: 'write' }),
    ],
    adminRoles: ['ops'],
    ...extra,
  };
}

export function configWith(catalogs: CatalogConfig[], auth: AuthConfig | undefined, batchSize = 100): Config {
  return testConfig(catalogs, { batchSize, ...(auth && { auth }) });
}

/**
 * The demo tables moved under nested namespaces: sales.eu.orders, sales.us.returns, events.clicks,
 * legacy.inventory (each keeps its recorded location, which resolves below where it now lies).
 */
export function nestedWarehouse(demo: string): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'icefront-auth-wh-'));
  const moves: [string, string][] = [
    ['sales/orders', 'sales/eu/orders'],
    ['sales/returns', 'sales/us/returns'],
    ['events/clicks', 'events/clicks'],
    ['legacy/inventory', 'legacy/inventory'],
  ];
  for (const [from, to] of moves) fs.cpSync(path.join(demo, from), path.join(dir, to), { recursive: true });
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
