/**
 * Parsed table metadata in a planning worker, under the pool's number for each metadata object
 * (one never changes; worker-protocol.ts `meta`), so the worker parses a version once however many
 * jobs plan it. Bounded by count and by the bytes of the JSON parsed: a table with thousands of
 * snapshots has metadata of tens of MB, several times that once parsed, and a table committed to
 * often is a new version each time; by count alone, every worker kept 64 of its versions.
 */
import { LRUCache } from 'lru-cache';

export interface ParsedMetadataOptions {
  /** Versions kept at most. */
  readonly maxVersions: number;
  /** Characters of their JSON kept at most; a larger one is parsed for the jobs asking and not kept. */
  readonly maxTextChars: number;
}

export class ParsedMetadata<T> {
  /** Each entry a box of its own: lru-cache re-sizes an entry only when the value set is another object. */
  readonly #kept: LRUCache<number, { readonly parsed: Promise<T> }>;

  constructor(options: ParsedMetadataOptions) {
    this.#kept = new LRUCache({ max: options.maxVersions, maxSize: options.maxTextChars });
  }

  /** The version numbered `id`: kept, being parsed, or fetched as text by `load` and parsed by `parse` now. */
  get(id: number, load: () => Promise<string>, parse: (text: string) => T): Promise<T> {
    const kept = this.#kept.get(id);
    if (kept !== undefined) return kept.parsed;
    let size = 1; // while its text is on the way
    const parsed = load().then((text) => {
      size = Math.max(1, text.length);
      return parse(text);
    });
    // joined while pending; then sized by its text (one past the bound leaves: its jobs hold the promise)
    this.#kept.set(id, { parsed }, { size });
    const ours = () => this.#kept.peek(id)?.parsed === parsed;
    parsed.then(
      () => {
        if (ours()) this.#kept.set(id, { parsed }, { size });
      },
      () => {
        if (ours()) this.#kept.delete(id);
      },
    );
    return parsed;
  }

  /** Characters of JSON kept (a version still on its way counts 1). */
  get textChars(): number {
    return this.#kept.calculatedSize;
  }

  get versions(): number {
    return this.#kept.size;
  }
}
