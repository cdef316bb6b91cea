/**
 * A canonical string for (spec id, partition tuple), so deletes and data files can be matched
 * by partition in a Map. Spec "Scan Planning": partition equality uses the partition type's
 * comparator, with floats compared by their canonical bits (-0.0 and 0.0 differ, NaNs are equal).
 */
export function partitionKey(specId: number, partition: readonly unknown[]): string {
  let key = String(specId);
  for (const v of partition) key += '\u0001' + encode(v);
  return key;
}

function encode(v: unknown): string {
  if (v === null || v === undefined) return 'N';
  switch (typeof v) {
    case 'bigint':
      return 'l' + v.toString();
    case 'number':
      if (Number.isNaN(v)) return 'dNaN';
      return Object.is(v, -0) ? 'd-0' : 'd' + String(v);
    case 'string':
      return 's' + v;
    case 'boolean':
      return v ? 'T' : 'F';
    default:
      if (v instanceof Uint8Array) return 'b' + Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');
      return 'j' + JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
  }
}
