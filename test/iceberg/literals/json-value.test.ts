import t from 'tap';
import { fromJsonSingleValue, toJsonSingleValue } from '../../../src/iceberg/literals/index.js';
import { parseJson, stringifyJson } from '../../../src/json/index.js';
import type { IcebergType } from '../../../src/iceberg/types.js';
import { hex, loadVectors, SKIP_NO_SHARED, vectorTypes, vectorValue } from './vectors.js';

interface JsonVector {
  type: string;
  json: string;
  value?: unknown;
  from: string;
}

const file = loadVectors<{ vectors: JsonVector[] }>('json_single_value_vectors.json');

/** The vector's JSON text; the spec writes geometry WKT bare, meaning a JSON string holding it. */
function jsonText(v: JsonVector): string {
  try {
    parseJson(v.json);
    return v.json;
  } catch {
    return JSON.stringify(v.json);
  }
}

function comparable(v: unknown): unknown {
  if (v instanceof Uint8Array) return `bytes:${hex(v)}`;
  if (v instanceof Map) return [...v.entries()].map(([k, x]) => [comparable(k), comparable(x)]);
  if (Array.isArray(v)) return v.map(comparable);
  return v;
}

const HEX_TYPES = new Set(['fixed', 'binary']);

t.test('every JSON single-value vector round-trips to the same JSON', { skip: !file && SKIP_NO_SHARED }, async (t) => {
  for (const [i, v] of file!.vectors.entries()) {
    const text = jsonText(v);
    for (const type of vectorTypes(v.type, { text: v.json })) {
      const name = `#${i} ${v.type} ${v.json} (${v.from})`;
      const value = fromJsonSingleValue(type, parseJson(text));
      if (v.value !== undefined) t.same(comparable(value), comparable(vectorValue(type, v.value)), `parse ${name}`);
      const written = stringifyJson(toJsonSingleValue(type, value));
      const expected = stringifyJson(parseJson(text));
      if (HEX_TYPES.has(type.kind)) {
        t.equal(written.toLowerCase(), expected.toLowerCase(), `round trip ${name}`);
        t.equal(written, written.toUpperCase(), `Java writes upper-case hex: ${name}`);
      } else {
        t.equal(written, expected, `round trip ${name}`);
      }
      if (v.value !== undefined) {
        const fromValue = stringifyJson(toJsonSingleValue(type, vectorValue(type, v.value)));
        t.equal(fromValue.toLowerCase(), expected.toLowerCase(), `write ${name}`);
      }
    }
  }
});

const write = (type: IcebergType, value: unknown): string => stringifyJson(toJsonSingleValue(type, value));
const read = (type: IcebergType, text: string): unknown => fromJsonSingleValue(type, parseJson(text));

t.test('timestamps are written as Java writes them', async (t) => {
  const ts: IcebergType = { kind: 'timestamp' };
  const tz: IcebergType = { kind: 'timestamptz' };
  const midnight = 1704067200000000n; // 2024-01-01T00:00:00Z
  t.equal(write(ts, midnight), '"2024-01-01T00:00:00"', 'no fraction when zero');
  t.equal(write(ts, midnight + 100000n), '"2024-01-01T00:00:00.1"', 'fraction trimmed');
  t.equal(write(tz, midnight + 123456n), '"2024-01-01T00:00:00.123456+00:00"', 'tz ends in +00:00');
  t.equal(write({ kind: 'timestamptz_ns' }, midnight * 1000n + 1n), '"2024-01-01T00:00:00.000000001+00:00"');
  t.equal(write(ts, -1n), '"1969-12-31T23:59:59.999999"', 'before the epoch');
  t.equal(write({ kind: 'time' }, 0n), '"00:00:00"');
  t.equal(write({ kind: 'date' }, -719528), '"0000-01-01"');
});

t.test('floats and doubles always carry a decimal point', async (t) => {
  t.equal(write({ kind: 'double' }, 1), '1.0');
  t.equal(write({ kind: 'double' }, -0), '-0.0');
  t.equal(write({ kind: 'double' }, 1e21), '1.0E21');
  t.equal(write({ kind: 'double' }, 1.5e-7), '1.5E-7');
  t.equal(write({ kind: 'double' }, 1234567.5), '1234567.5');
  t.equal(write({ kind: 'float' }, Math.fround(1.23)), '1.23', 'shortest text that reads back as the same float');
  t.equal(write({ kind: 'float' }, Math.fround(0.1)), '0.1');
  t.equal(write({ kind: 'double' }, NaN), '"NaN"', 'NaN as Jackson writes it');
  t.ok(Number.isNaN(read({ kind: 'double' }, '"NaN"')));
  t.equal(read({ kind: 'double' }, '"-Infinity"'), -Infinity);
  t.equal(read({ kind: 'float' }, '1.23'), Math.fround(1.23), 'a float reads as binary32');
});

t.test('decimals are written with the type scale, plain or scientific for negative scales', async (t) => {
  t.equal(write({ kind: 'decimal', precision: 9, scale: 4 }, 1234500n), '"123.4500"');
  t.equal(write({ kind: 'decimal', precision: 9, scale: 2 }, -5n), '"-0.05"');
  t.equal(write({ kind: 'decimal', precision: 9, scale: -20 }, 2n), '"2E+20"');
  t.equal(write({ kind: 'decimal', precision: 9, scale: -2 }, 123n), '"1.23E+4"');
  t.equal(read({ kind: 'decimal', precision: 9, scale: 2 }, '"-0.05"'), -5n);
});

t.test('longs beyond 2^53 stay exact both ways', async (t) => {
  t.equal(write({ kind: 'long' }, 9158179788527662767n), '9158179788527662767');
  t.equal(read({ kind: 'long' }, '9158179788527662767'), 9158179788527662767n);
  t.equal(read({ kind: 'long' }, '-5'), -5n);
});

t.test('nested values: struct by field id with nulls skipped, list, map', async (t) => {
  const struct: IcebergType = {
    kind: 'struct',
    fields: [
      { id: 1, name: 'x', required: false, type: { kind: 'long' } },
      { id: 7, name: 'y', required: false, type: { kind: 'date' } },
    ],
  };
  t.equal(write(struct, [null, 0]), '{"7":"1970-01-01"}');
  t.same(read(struct, '{"1": 3}'), [3n, null]);
  const map: IcebergType = {
    kind: 'map', keyId: 1, key: { kind: 'string' }, valueId: 2, valueRequired: false, value: { kind: 'binary' },
  };
  t.equal(write(map, new Map([['a', Uint8Array.of(255)], ['b', null]])), '{"keys":["a","b"],"values":["FF",null]}');
});

t.test('values Java would reject are rejected with INVALID_VALUE', async (t) => {
  const bad = (type: IcebergType, text: string, what: string): void => {
    t.throws(() => read(type, text), { name: 'IcefrontError', code: 'INVALID_VALUE' }, what);
  };
  bad({ kind: 'int' }, '1.0', 'an int must be an integral number');
  bad({ kind: 'int' }, '2147483648', 'an int must fit 32 bits');
  bad({ kind: 'long' }, '"5"', 'a long must be a number');
  bad({ kind: 'boolean' }, '1', 'a boolean must be a JSON boolean');
  bad({ kind: 'decimal', precision: 9, scale: 2 }, '"1.5"', 'decimal scale must match the type');
  bad({ kind: 'timestamptz' }, '"2017-11-16T14:31:08-08:00"', 'timestamptz offset must be UTC');
  bad({ kind: 'timestamp' }, '"2017-11-16T14:31:08+00:00"', 'timestamp takes no offset');
  bad({ kind: 'uuid' }, '"f79c3e09677c4bbda4793f349cb785e7"', 'uuid must be 36 characters');
  bad({ kind: 'fixed', length: 2 }, '"00"', 'fixed hex must be 2·L characters');
  bad({ kind: 'date' }, '"2017-02-29"', 'no 29 February in 2017');
  bad({ kind: 'unknown' }, '1', 'unknown only allows null');
  t.equal(read({ kind: 'unknown' }, 'null'), null);
  t.equal(read({ kind: 'timestamptz' }, '"2017-11-16T22:31:08Z"'), 1510871468000000n, 'Z is a UTC offset');
});
