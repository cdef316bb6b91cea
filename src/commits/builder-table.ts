/**
 * Table-wide settings in Java's TableMetadata.Builder: uuid, format version, location, properties
 * and v3 encryption keys. Java records a change for any non-empty property set or removal, even
 * when the values are already so; a commit of such a change writes new metadata.
 */
import { fail } from '../errors/index.js';
import type { EncryptedKey } from '../iceberg/index.js';
import type { MetadataBuilder } from './builder-state.js';

/** The highest format version the model reads and writes (Java 1.10+ supports v4, which Icefront does not). */
export const SUPPORTED_FORMAT_VERSION = 3;

export function assignUuid(b: MetadataBuilder, uuid: string): void {
  if (uuid === b.uuid) return;
  b.uuid = uuid;
  b.other('assign-uuid');
}

/** Java Builder.upgradeFormatVersion: only upward, up to the supported version; the same version is no change. */
export function upgradeFormatVersion(b: MetadataBuilder, formatVersion: number): void {
  if (formatVersion > SUPPORTED_FORMAT_VERSION) {
    throw fail(
      'ILLEGAL_ARGUMENT',
      `Cannot upgrade table to unsupported format version: v${formatVersion} (supported: v${SUPPORTED_FORMAT_VERSION})`,
    );
  }
  if (formatVersion < b.formatVersion) throw fail('ILLEGAL_ARGUMENT', `Cannot downgrade v${b.formatVersion} table to v${formatVersion}`);
  if (formatVersion === b.formatVersion) return;
  b.formatVersion = formatVersion;
  b.other('upgrade-format-version');
}

/** Java Builder.setLocation: compared as sent; build() strips trailing slashes (TableMetadata's constructor). */
export function setLocation(b: MetadataBuilder, location: string): void {
  if (b.location !== undefined && b.location === location) return;
  b.location = location;
  b.other('set-location');
}

export function setProperties(b: MetadataBuilder, updates: Readonly<Record<string, string>>): void {
  const entries = Object.entries(updates);
  if (entries.length === 0) return;
  for (const [k, v] of entries) b.properties.set(k, v);
  b.other('set-properties');
}

export function removeProperties(b: MetadataBuilder, removals: readonly string[]): void {
  if (removals.length === 0) return;
  for (const k of removals) b.properties.delete(k);
  b.other('remove-properties');
}

/** Java Builder.addEncryptionKey: a key id already there is no change. */
export function addEncryptionKey(b: MetadataBuilder, key: EncryptedKey): void {
  if (b.encryptionKeys.some((k) => k.keyId === key.keyId)) return;
  b.encryptionKeys = [...b.encryptionKeys, key];
  b.other('add-encryption-key');
}

export function removeEncryptionKey(b: MetadataBuilder, keyId: string): void {
  const kept = b.encryptionKeys.filter((k) => k.keyId !== keyId);
  if (kept.length === b.encryptionKeys.length) return;
  b.encryptionKeys = kept;
  b.other('remove-encryption-key');
}
