/**
 * JSON text already written (by a planning worker, say) that `stringifyJson` and `jsonBytes`
 * embed verbatim, so a response assembled from parts is never parsed and re-serialised. The text
 * must be one complete JSON value; nothing checks it. Held as UTF-8 bytes (a worker's page of
 * tasks, which never becomes a string on the main thread) or as a string.
 */
export class RawJson {
  constructor(readonly text: string | Uint8Array) {}

  /** The text as a string (bytes decoded: only where a whole string is asked for). */
  string(): string {
    const { text } = this;
    return typeof text === 'string' ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8');
  }

  /** The text as bytes (a string encoded). */
  bytes(): Buffer {
    const { text } = this;
    return typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  }
}
