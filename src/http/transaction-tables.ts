/**
 * The tables a multi-table commit (`POST /v1/{prefix}/transactions/commit`) changes, read from its
 * body before it is forwarded. Every change must name its table: an identifier is the only thing
 * that can name one, and a change that names none cannot be shown to be under the addressed
 * catalog (or authorized). Pure: no I/O, no parsing of anything but the fields checked.
 */
import { fail } from '../errors/index.js';

export interface TransactionTable {
  readonly namespace: string[];
  readonly name: string;
}

/**
 * REST spec CommitTransactionRequest: `table-changes` is required, and each CommitTableRequest
 * "must provide an `identifier`" (TableIdentifier: `namespace` an array of strings, `name` a
 * string); Java's CommitTransactionRequest.validate also refuses an empty list. Anything else →
 * 400 BadRequestException.
 */
export function transactionTables(body: unknown): TransactionTable[] {
  if (!isRecord(body)) throw fail('BAD_REQUEST', 'A transaction commit body must be a JSON object');
  const changes = body['table-changes'];
  if (!Array.isArray(changes) || changes.length === 0) throw fail('BAD_REQUEST', 'A transaction commit needs a non-empty table-changes array');
  return changes.map((change, i) => {
    const id = isRecord(change) ? change['identifier'] : undefined;
    const namespace = isRecord(id) ? id['namespace'] : undefined;
    const name = isRecord(id) ? id['name'] : undefined;
    if (!Array.isArray(namespace) || !namespace.every((level) => typeof level === 'string') || typeof name !== 'string')
      throw fail('BAD_REQUEST', `table-changes[${i}] does not name its table (identifier with a namespace array of strings and a name)`);
    return { namespace: [...namespace], name };
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
