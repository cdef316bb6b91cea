/** Names of what a catalog holds (REST spec `Namespace`, `TableIdentifier`). */

/** A namespace: its levels, never a dotted string (levels may contain `.`). */
export type Namespace = readonly string[];

export interface TableIdentifier {
  readonly namespace: Namespace;
  readonly name: string;
}
