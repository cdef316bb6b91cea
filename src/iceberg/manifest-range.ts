/**
 * A slice of one manifest's entries: what a plan task carries, what batch cutting makes and what
 * a redemption reads (Gravitino design §8.5.1: a batch is a run of manifest entries, possibly
 * spanning manifests, so a plan task names entry ranges). One type for the three (issue #30).
 */
export interface ManifestRange {
  readonly manifest: string;
  /** Entries [start, end) by ordinal: file order, DELETED entries included. */
  readonly start: number;
  readonly end: number;
  /** Byte offset of the first Avro block holding entry `start`; comes with `length` and `first`. */
  readonly offset?: number;
  /** Bytes from `offset` covering every block up to entry `end - 1`. */
  readonly length?: number;
  /** Ordinal of the first entry of the block at `offset` (≤ `start`). */
  readonly first?: number;
  /** First row id assigned to the first entry of the block at `offset` (v3 row lineage). */
  readonly nextRowId?: bigint;
}
