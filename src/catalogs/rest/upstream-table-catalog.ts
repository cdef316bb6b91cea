/**
 * An upstream REST catalog seen as a Catalog for one caller, so Icefront can plan its scans
 * locally: the table is loaded THROUGH the upstream with the caller's credentials (so the upstream
 * authorizes every /plan and /tasks). Its files are read from S3 with the credentials the upstream
 * vends, else the catalog's configured ones; a table whose location is local (`file:`, an absolute
 * path) is read through the catalog's `storage.local` FileIO, confined to its roots. Only
 * loadTable is served.
 */
import type { RestCatalogConfig } from '../../config/index.js';
import { fail } from '../../errors/index.js';
import { normalizeLocation, s3FileIOFromTableConfig, type FileIO } from '../../storage/index.js';
import type { Catalog, LoadedTable } from '../catalog.js';
import type { StorageCredential } from './load-table-result.js';
import type { RestUpstream } from './rest-upstream.js';

export function upstreamTableCatalog(
  name: string,
  upstream: RestUpstream,
  config: RestCatalogConfig,
  callerAuthorization: string | undefined,
  accessDelegation?: string,
  /** The catalog's `storage.local` FileIO, built once per catalog. */
  localIO?: FileIO,
): Catalog {
  const unsupported = (): never => {
    throw fail('UNSUPPORTED_OPERATION', `Catalog "${name}" is served by its upstream`);
  };
  // A table Icefront cannot read is this catalog's configuration problem, not the caller's
  // authorization problem: a 406 naming the catalog and the fix, never S3's 403 for a non-S3 path.
  const cannotRead = (location: string, why: string): never => {
    throw fail(
      'UNSUPPORTED_OPERATION',
      `Catalog "${name}" plans locally (planning: ${config.planning}), but Icefront cannot read this table's files at ${location}: ${why}. ` +
        `Set planning: upstream for this catalog to let the upstream plan, or make its files readable to Icefront`,
    );
  };
  const tableIO = (location: string, vended: Readonly<Record<string, string>>): FileIO => {
    const normal = normalizeLocation(location);
    if (normal.kind === 'local') return localIO ?? cannotRead(location, 'the catalog has no storage.local roots');
    if (normal.kind !== 'remote' || !normal.text.startsWith('s3://')) return cannotRead(location, 'it reads S3 (s3://, s3a://, s3n://) and local files only');
    return s3FileIOFromTableConfig(vended, config.storage?.s3, { timeoutMs: config.requestTimeoutMs });
  };
  return {
    name,
    type: 'rest',
    planning: true,
    listNamespaces: unsupported,
    loadNamespace: unsupported,
    listTables: unsupported,
    async loadTable(identifier, options): Promise<LoadedTable> {
      const table = await upstream.loadTable(identifier.namespace, identifier.name, callerAuthorization, accessDelegation, { pinned: options?.pinned === true && options.fresh !== true });
      const location = table.metadata.location;
      // REST spec LoadTableResult: a storage credential applies to locations under its prefix; the longest wins.
      const vended = { ...table.config, ...longestPrefix(table.storageCredentials, location)?.config };
      return {
        identifier: { namespace: [...identifier.namespace], name: identifier.name },
        metadataLocation: table.metadataLocation ?? `${location.replace(/\/+$/, '')}/metadata`,
        metadata: table.metadata,
        config: {},
        io: tableIO(location, vended),
      };
    },
  };
}

function longestPrefix(credentials: readonly StorageCredential[], location: string): StorageCredential | undefined {
  let best: StorageCredential | undefined;
  for (const c of credentials) {
    if (location.startsWith(c.prefix) && (!best || c.prefix.length > best.prefix.length)) best = c;
  }
  return best;
}
