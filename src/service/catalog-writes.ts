/**
 * The mutation use cases of the REST catalog API on the catalogs Icefront keeps itself (issue
 * #40): each request body checked (400 naming the field), then handed to the catalog's writes.
 * A catalog without writes (read-only) answers every mutation with 406.
 */
import type { Catalog, CatalogWrites, LoadedTable, StagedTable } from '../catalogs/index.js';
import { parseCreateTableRequest, parseTableChange, parseTransaction } from '../commits/index.js';
import { fail } from '../errors/index.js';
import { tableMetadataToJson, type Namespace, type TableIdentifier } from '../iceberg/index.js';
import { RawJson } from '../json/index.js';
import { checkNamespace, checkTableIdentifier, quote } from './identifiers.js';
import { parseCreateNamespace, parsePurge, parseRegisterTable, parseRename, parseUpdateNamespace } from './write-requests.js';

/** REST spec LoadTableResult of a create (no `metadata-location` for a staged one) and CommitTableResponse. */
export interface WrittenTable {
  readonly 'metadata-location'?: string;
  readonly metadata: unknown;
  readonly config?: Readonly<Record<string, string>>;
}

export interface CatalogWriteUseCases {
  createNamespace(prefix: string, body: unknown): Promise<{ namespace: Namespace; properties: Record<string, string> }>;
  dropNamespace(prefix: string, namespace: Namespace): Promise<void>;
  updateNamespace(prefix: string, namespace: Namespace, body: unknown): Promise<{ updated: string[]; removed: string[]; missing: string[] }>;
  createTable(prefix: string, namespace: Namespace, body: unknown): Promise<WrittenTable>;
  registerTable(prefix: string, namespace: Namespace, body: unknown): Promise<WrittenTable>;
  dropTable(prefix: string, identifier: TableIdentifier, purgeRequested: string | undefined): Promise<void>;
  renameTable(prefix: string, body: unknown): Promise<void>;
  /** REST updateTable: CommitTableResponse. */
  updateTable(prefix: string, identifier: TableIdentifier, body: unknown): Promise<WrittenTable>;
  commitTransaction(prefix: string, body: unknown): Promise<void>;
}

export function createCatalogWrites(catalogFor: (prefix: string) => Catalog): CatalogWriteUseCases {
  function writesOf(prefix: string, operation: string): CatalogWrites {
    const writes = catalogFor(prefix).writes;
    if (!writes) throw fail('UNSUPPORTED_OPERATION', `Catalog ${quote(prefix)} is read-only: it does not ${operation}`);
    return writes;
  }

  return {
    async createNamespace(prefix, body) {
      const writes = writesOf(prefix, 'create namespaces');
      const { namespace, properties } = parseCreateNamespace(body);
      return { namespace: [...namespace], properties: await writes.createNamespace(namespace, properties) };
    },

    async dropNamespace(prefix, namespace) {
      await writesOf(prefix, 'drop namespaces').dropNamespace(checkNamespace(namespace, false));
    },

    // Java CatalogHandlers.updateNamespaceProperties: `missing` are removals the namespace did not have
    async updateNamespace(prefix, namespace, body) {
      const writes = writesOf(prefix, 'keep namespace properties');
      if (!writes.supports.namespaceProperties) throw fail('UNSUPPORTED_OPERATION', `Catalog ${quote(prefix)} does not keep namespace properties`);
      checkNamespace(namespace, false);
      const { removals, updates } = parseUpdateNamespace(body);
      const before = await catalogFor(prefix).loadNamespace(namespace);
      const missing = removals.filter((k) => !Object.hasOwn(before, k));
      await writes.updateNamespaceProperties(namespace, updates, removals);
      return { updated: Object.keys(updates), removed: removals.filter((k) => !missing.includes(k)), missing };
    },

    async createTable(prefix, namespace, body) {
      const writes = writesOf(prefix, 'create tables');
      checkNamespace(namespace, false);
      const request = parseCreateTableRequest(body);
      checkTableIdentifier(namespace, request.name);
      return written(await writes.createTable(namespace, request));
    },

    async registerTable(prefix, namespace, body) {
      const writes = writesOf(prefix, 'register tables');
      if (!writes.supports.registerTable) throw fail('UNSUPPORTED_OPERATION', `Catalog ${quote(prefix)} does not register tables`);
      const { name, metadataLocation, overwrite } = parseRegisterTable(body);
      return written(await writes.registerTable(checkTableIdentifier(namespace, name), metadataLocation, overwrite));
    },

    async dropTable(prefix, identifier, purgeRequested) {
      const writes = writesOf(prefix, 'drop tables');
      await writes.dropTable(checkTableIdentifier(identifier.namespace, identifier.name), parsePurge(purgeRequested));
    },

    async renameTable(prefix, body) {
      const writes = writesOf(prefix, 'rename tables');
      if (!writes.supports.renameTable) throw fail('UNSUPPORTED_OPERATION', `Catalog ${quote(prefix)} cannot rename tables`);
      const { source, destination } = parseRename(body);
      await writes.renameTable(source, destination);
    },

    async updateTable(prefix, identifier, body) {
      const writes = writesOf(prefix, 'commit to tables');
      const id = checkTableIdentifier(identifier.namespace, identifier.name);
      const change = parseTableChange(body, '', false);
      const [table] = await writes.commit([{ identifier: id, change }]);
      return { 'metadata-location': table!.metadataLocation, metadata: metadataJson(table!) };
    },

    async commitTransaction(prefix, body) {
      const writes = writesOf(prefix, 'commit transactions');
      const changes = parseTransaction(body);
      if (changes.length > 1 && !writes.supports.transactions) throw fail('UNSUPPORTED_OPERATION', `Catalog ${quote(prefix)} cannot commit several tables at once`);
      const seen = new Set<string>();
      const commits = changes.map((change) => {
        const id = checkTableIdentifier(change.identifier!.namespace, change.identifier!.name);
        const key = JSON.stringify([id.namespace, id.name]);
        // one change per table: Java's CatalogHandlers would apply two against the same base
        if (seen.has(key)) throw fail('BAD_REQUEST', `Invalid table-changes: ${[...id.namespace, id.name].join('.')} appears more than once`);
        seen.add(key);
        return { identifier: id, change };
      });
      await writes.commit(commits);
    },
  };
}

function written(table: LoadedTable | StagedTable): WrittenTable {
  const location = 'metadataLocation' in table ? table.metadataLocation : undefined;
  return { ...(location !== undefined && { 'metadata-location': location }), metadata: metadataJson(table), config: { ...table.config } };
}

/** The metadata of an answer: the text the catalog wrote to its file when it has it, else serialised now. */
function metadataJson(table: LoadedTable | StagedTable): unknown {
  return 'metadataJson' in table && table.metadataJson !== undefined ? new RawJson(table.metadataJson) : tableMetadataToJson(table.metadata);
}
