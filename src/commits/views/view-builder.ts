/**
 * The next view metadata from a base and a list of updates, by the rules of Java's
 * ViewMetadata.Builder (as CatalogHandlers.commit drives it for a view): an identical version
 * reuses its id, an identical schema its id, `-1` names the version or schema added last in this
 * commit, the version log grows when the current version changes, and versions beyond
 * `version.history.num-entries` are expired.
 */
import { fail } from '../../errors/index.js';
import {
  Schema,
  VIEW_FORMAT_VERSION,
  currentViewVersion,
  type ViewHistoryEntry,
  type ViewMetadata,
  type ViewVersion,
} from '../../iceberg/index.js';
import type { ViewUpdate } from './view-updates.js';
import { sameSchema, sameViewVersion, sqlDialects } from './view-compare.js';
import { dropDialectAllowed, expireVersions, retainHistory, versionHistorySize } from './view-history.js';

/** What a view commit needs of the world (structurally the commit core's CommitClock). */
export interface ViewClock {
  /** Milliseconds since the epoch (version timestamps, version-log entries). */
  now(): number;
  /** A random v4 UUID (view-uuid of a new view). */
  newUuid(): string;
}

/** The view as a store holds it: its metadata and the file that metadata was read from. */
export interface StoredView {
  readonly metadata: ViewMetadata;
  readonly metadataLocation: string;
}

export interface ViewBuildResult {
  readonly metadata: ViewMetadata;
  /** False when the updates changed nothing: Java's CatalogHandlers.commit then writes no new file. */
  readonly changed: boolean;
}

// ViewMetadata.Builder.LAST_ADDED
const LAST_ADDED = -1;

export function applyViewUpdates(base: StoredView | undefined, updates: readonly ViewUpdate[], clock: ViewClock): ViewBuildResult {
  const builder = new ViewMetadataBuilder(clock, base?.metadata);
  for (const update of updates) builder.apply(update);
  return builder.build();
}

/** Java ViewMetadata.Builder; `base` undefined is ViewMetadata.builder(), else buildFrom(base). */
export class ViewMetadataBuilder {
  readonly #clock: ViewClock;
  readonly #versions: ViewVersion[];
  readonly #schemas: Schema[];
  readonly #history: ViewHistoryEntry[];
  readonly #properties: Map<string, string>;
  readonly #extra: Readonly<Record<string, unknown>>;
  #formatVersion: number;
  // a fresh Java builder's int field starts at 0
  #currentVersionId: number;
  #location: string | undefined;
  #uuid: string | undefined;
  // change tracking: how many changes, and the ids of the versions added (AddViewVersion)
  #changes = 0;
  readonly #addedVersionIds: number[] = [];
  #lastAddedVersionId: number | undefined;
  #lastAddedSchemaId: number | undefined;
  #historyEntry: ViewHistoryEntry | undefined;
  readonly #previousVersion: ViewVersion | undefined;

  constructor(clock: ViewClock, base?: ViewMetadata) {
    this.#clock = clock;
    this.#versions = [...(base?.versions ?? [])];
    this.#schemas = [...(base?.schemas ?? [])];
    this.#history = [...(base?.versionLog ?? [])];
    this.#properties = new Map(Object.entries(base?.properties ?? {}));
    this.#extra = base?.extra ?? {};
    this.#formatVersion = base?.formatVersion ?? VIEW_FORMAT_VERSION;
    this.#currentVersionId = base?.currentVersionId ?? 0;
    this.#location = base?.location;
    this.#uuid = base?.viewUuid;
    this.#previousVersion = base === undefined ? undefined : currentViewVersion(base);
  }

  /** Java MetadataUpdate.applyTo(ViewMetadata.Builder). */
  apply(update: ViewUpdate): this {
    switch (update.action) {
      case 'assign-uuid':
        return this.assignUuid(update.uuid);
      case 'upgrade-format-version':
        return this.upgradeFormatVersion(update.formatVersion);
      case 'add-schema':
        this.#addSchema(update.schema);
        return this;
      case 'set-location':
        return this.setLocation(update.location);
      case 'set-properties':
        return this.setProperties(update.updates);
      case 'remove-properties':
        return this.removeProperties(update.removals);
      case 'add-view-version':
        this.#addVersion(update.viewVersion);
        return this;
      case 'set-current-view-version':
        return this.setCurrentVersionId(update.viewVersionId);
    }
  }

  assignUuid(uuid: string): this {
    if (this.#uuid !== undefined && this.#uuid !== uuid) throw fail('ILLEGAL_ARGUMENT', 'Cannot reassign uuid');
    if (this.#uuid !== uuid) {
      this.#uuid = uuid;
      this.#changes++;
    }
    return this;
  }

  upgradeFormatVersion(formatVersion: number): this {
    if (formatVersion < this.#formatVersion) {
      throw fail('ILLEGAL_ARGUMENT', `Cannot downgrade v${this.#formatVersion} view to v${formatVersion}`);
    }
    if (formatVersion !== this.#formatVersion) {
      this.#formatVersion = formatVersion;
      this.#changes++;
    }
    return this;
  }

  setLocation(location: string): this {
    if (this.#location !== location) {
      this.#location = location;
      this.#changes++;
    }
    return this;
  }

  /** A change even when every value is already set (Java records SetProperties unless empty). */
  setProperties(updates: Readonly<Record<string, string>>): this {
    const entries = Object.entries(updates);
    if (entries.length === 0) return this;
    for (const [k, v] of entries) this.#properties.set(k, v);
    this.#changes++;
    return this;
  }

  removeProperties(removals: readonly string[]): this {
    if (removals.length === 0) return this;
    for (const k of removals) this.#properties.delete(k);
    this.#changes++;
    return this;
  }

  /** Java Builder.setCurrentVersion(version, schema): adds both, then makes the version current. */
  setCurrentVersion(version: ViewVersion, schema: Schema): this {
    const schemaId = this.#addSchema(schema);
    return this.setCurrentVersionId(this.#addVersion({ ...version, schemaId }));
  }

  setCurrentVersionId(versionId: number): this {
    if (versionId === LAST_ADDED) {
      if (this.#lastAddedVersionId === undefined) {
        throw fail('VALIDATION_FAILED', 'Cannot set last version id: no current version id has been set');
      }
      return this.setCurrentVersionId(this.#lastAddedVersionId);
    }
    if (this.#currentVersionId === versionId) return this;
    const version = this.#versions.find((v) => v.versionId === versionId);
    if (version === undefined) throw fail('ILLEGAL_ARGUMENT', `Cannot set current version to unknown version: ${versionId}`);
    this.#currentVersionId = versionId;
    this.#changes++;
    // the version's own timestamp when it was added in this commit; now when an older one returns
    const addedNow = this.#addedVersionIds.includes(versionId);
    this.#historyEntry = { timestampMs: addedNow ? version.timestampMs : this.#clock.now(), versionId };
    return this;
  }

  /** Java Builder.addVersionInternal: the id the version has in the result. */
  #addVersion(added: ViewVersion): number {
    const versionId = this.#reuseOrNewVersionId(added);
    if (this.#versions.some((v) => v.versionId === versionId)) {
      this.#lastAddedVersionId = this.#addedVersionIds.includes(versionId) ? versionId : undefined;
      return versionId;
    }
    let version: ViewVersion = versionId === added.versionId ? added : { ...added, versionId };
    if (version.schemaId === LAST_ADDED) {
      if (this.#lastAddedSchemaId === undefined) throw fail('VALIDATION_FAILED', 'Cannot set last added schema: no schema has been added');
      version = { ...version, schemaId: this.#lastAddedSchemaId };
    }
    const schemaId = version.schemaId;
    if (!this.#schemas.some((s) => s.schemaId === schemaId)) {
      throw fail('ILLEGAL_ARGUMENT', `Cannot add version with unknown schema: ${schemaId}`);
    }
    const dialects = new Set<string>();
    for (const r of version.representations) {
      if (r.kind !== 'sql') continue;
      const dialect = r.dialect.toLowerCase();
      if (dialects.has(dialect)) {
        throw fail('ILLEGAL_ARGUMENT', `Invalid view version: Cannot add multiple queries for dialect ${dialect}`);
      }
      dialects.add(dialect);
    }
    this.#versions.push(version);
    this.#addedVersionIds.push(versionId);
    this.#changes++;
    this.#lastAddedVersionId = versionId;
    return versionId;
  }

  // Java Builder.reuseOrCreateNewViewVersionId: an identical version's id, else above every id seen
  #reuseOrNewVersionId(version: ViewVersion): number {
    let id = version.versionId;
    for (const v of this.#versions) {
      if (sameViewVersion(v, version)) return v.versionId;
      if (v.versionId >= id) id = v.versionId + 1;
    }
    return id;
  }

  /** Java Builder.addSchemaInternal: an identical schema's id, else the next id from 0. */
  #addSchema(schema: Schema): number {
    let schemaId = 0;
    for (const s of this.#schemas) {
      if (sameSchema(s, schema)) {
        schemaId = s.schemaId;
        break;
      }
      if (s.schemaId >= schemaId) schemaId = s.schemaId + 1;
    }
    if (this.#schemas.some((s) => s.schemaId === schemaId)) return schemaId;
    this.#schemas.push(schemaId === schema.schemaId ? schema : new Schema(schema.fields, schemaId, schema.identifierFieldIds));
    this.#changes++;
    this.#lastAddedSchemaId = schemaId;
    return schemaId;
  }

  /** Java Builder.build and ImmutableViewMetadata's checks. */
  build(): ViewBuildResult {
    const location = this.#location;
    if (location === undefined) throw fail('ILLEGAL_ARGUMENT', 'Invalid location: null');
    if (this.#versions.length === 0) throw fail('ILLEGAL_ARGUMENT', 'Invalid view: no versions were added');
    const current = this.#versions.find((v) => v.versionId === this.#currentVersionId);
    // Java fails on the first ViewMetadata.currentVersion() of such metadata
    if (current === undefined) throw fail('ILLEGAL_ARGUMENT', `Cannot find current version ${this.#currentVersionId} in view versions`);

    const history = this.#historyEntry === undefined ? this.#history : [...this.#history, this.#historyEntry];
    const properties: Record<string, string> = Object.fromEntries(this.#properties);

    // Java checkIfDialectIsDropped (Preconditions.checkState; answered here as an illegal argument)
    if (this.#previousVersion !== undefined && !dropDialectAllowed(properties)) {
      const before = sqlDialects(this.#previousVersion);
      const after = sqlDialects(current);
      const lost = [...before].filter((d) => !after.has(d));
      if (lost.length > 0) {
        throw fail(
          'ILLEGAL_ARGUMENT',
          `Cannot replace view due to loss of view dialects (replace.drop-dialect.allowed=false): previous dialects ${[...before].join(', ')}; new dialects ${[...after].join(', ')}`,
        );
      }
    }

    // keep at least the versions added in this commit and the current one
    const historySize = versionHistorySize(properties);
    const kept = new Set([...this.#addedVersionIds, this.#currentVersionId]).size;
    const keep = Math.max(kept, historySize);
    let versions: readonly ViewVersion[] = this.#versions;
    let versionLog: readonly ViewHistoryEntry[] = history;
    if (this.#versions.length > keep) {
      versions = expireVersions(this.#versions, keep, current);
      versionLog = retainHistory(history, new Set(versions.map((v) => v.versionId)));
    }

    // ImmutableViewMetadata.check: 0 < format-version <= SUPPORTED_VIEW_FORMAT_VERSION
    if (this.#formatVersion < 1 || this.#formatVersion > VIEW_FORMAT_VERSION) {
      throw fail('ILLEGAL_ARGUMENT', `Unsupported format version: ${this.#formatVersion}`);
    }
    const metadata: ViewMetadata = {
      viewUuid: this.#uuid ?? this.#clock.newUuid(),
      formatVersion: VIEW_FORMAT_VERSION,
      location,
      currentVersionId: this.#currentVersionId,
      versions,
      versionLog,
      schemas: [...this.#schemas],
      properties,
      extra: this.#extra,
    };
    return { metadata, changed: this.#changes > 0 };
  }
}
