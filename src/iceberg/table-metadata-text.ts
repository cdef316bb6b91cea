/**
 * Table metadata as JSON text: `stringifyJson(tableMetadataToJson(meta, opts))`, character for
 * character, written faster for a table with a long history. A snapshot and a snapshot-log entry
 * never change once made, and every later version of the table holds the same objects (the commit
 * builder carries them over; the metadata reader's cache keeps them), so each one's text is kept
 * with it: a commit writes the snapshot it added, not the table's whole history again. Lossless
 * int64s make `stringifyJson` call a replacer for every value, about four times the cost of
 * JSON.stringify alone, which is why the repeated part is worth keeping.
 */
import { RawJson, stringifyJson } from '../json/index.js';
import { snapshotToJson, type Snapshot } from './snapshot.js';
import { snapshotLogEntryToJson, tableMetadataModel, type MetadataLists, type TableMetadataJsonOptions } from './table-metadata-json.js';
import type { SnapshotLogEntry, TableMetadata } from './table-metadata.js';

const snapshotTexts = new WeakMap<Snapshot, string>();
const logTexts = new WeakMap<SnapshotLogEntry, string>();

function textOf<T extends object>(texts: WeakMap<T, string>, item: T, toJson: (item: T) => unknown): string {
  let text = texts.get(item);
  if (text === undefined) texts.set(item, (text = stringifyJson(toJson(item))));
  return text;
}

const TEXT_LISTS: MetadataLists = {
  snapshots: (list) => new RawJson(`[${list.map((s) => textOf(snapshotTexts, s, snapshotToJson)).join(',')}]`),
  snapshotLog: (list) => new RawJson(`[${list.map((e) => textOf(logTexts, e, snapshotLogEntryToJson)).join(',')}]`),
};

export function tableMetadataText(meta: TableMetadata, opts: TableMetadataJsonOptions = {}): string {
  return stringifyJson(tableMetadataModel(meta, opts, TEXT_LISTS));
}
