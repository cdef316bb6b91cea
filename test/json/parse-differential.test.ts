/**
 * parseJson's fast path must give exactly what the reference parser (lossless-json with the same
 * number rules) gives, on every real metadata file and on generated documents.
 */
import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'lossless-json';
import { metadataFileText } from '../../src/iceberg/index.js';
import { JsonFloat, parseJson } from '../../src/json/index.js';
import { REAL_FIXTURES_DIR, REAL_FIXTURES_SKIP, realFixturesAvailable } from '../helpers/real-fixtures.js';

function reference(text: string): unknown {
  return parse(text, null, {
    parseNumber: (s: string) => (/[.eE]/.test(s) ? new JsonFloat(s) : Number.isSafeInteger(Number(s)) ? Number(s) : BigInt(s)),
    onDuplicateKey: (info) => info.newValue,
  });
}

function jsonFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return jsonFiles(p);
    return e.name.endsWith('.json') ? [p] : [];
  });
}

t.test('every JSON file of the real fixtures parses exactly as the reference parser does', { skip: realFixturesAvailable() ? false : REAL_FIXTURES_SKIP }, async (t) => {
  let count = 0;
  for (const file of jsonFiles(REAL_FIXTURES_DIR)) {
    const text = metadataFileText(fs.readFileSync(file));
    let expected: unknown;
    try {
      expected = reference(text);
    } catch {
      t.throws(() => parseJson(text), { code: 'INVALID_JSON' }, `${file} is rejected by both`);
      continue;
    }
    count++;
    t.strictSame(parseJson(text), expected, path.relative(REAL_FIXTURES_DIR, file));
  }
  t.ok(count > 500, `${count} files compared`);
});

t.test('generated documents parse exactly as the reference parser does', async (t) => {
  let seed = 42;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const numbers = ['0', '-0', '1', '-17', '9007199254740991', '9007199254740993', '-9223372036854775808', '1.0', '2.50', '1e10', '-3.5E-7', '0.0'];
  const strings = ['""', '"a"', '"1.5"', '"x\\"2.5"', '"\\\\"', '"\\u00e9 7.0"', '"9158179788527662767"'];
  const gen = (depth: number): string => {
    const k = rand(depth > 3 ? 3 : 6);
    if (k === 0) return numbers[rand(numbers.length)]!;
    if (k === 1) return strings[rand(strings.length)]!;
    if (k === 2) return ['true', 'false', 'null'][rand(3)]!;
    if (k === 3) return `[${Array.from({ length: rand(4) }, () => gen(depth + 1)).join(rand(2) ? ',' : ' , ')}]`;
    return `{${Array.from({ length: rand(4) }, (_, i) => `${strings[rand(strings.length)]!.slice(0, -1)}${i}"${rand(2) ? ':' : ' :\n '}${gen(depth + 1)}`).join(',')}}`;
  };
  for (let i = 0; i < 500; i++) {
    const text = gen(0);
    t.strictSame(parseJson(text), reference(text), text);
  }
});
