/**
 * JSON text already written (by a planning worker, say) that `stringifyJson` embeds verbatim,
 * so a response assembled from parts is never parsed and re-serialised. The text must be one
 * complete JSON value; nothing checks it.
 */
export class RawJson {
  constructor(readonly text: string) {}
}
