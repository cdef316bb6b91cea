import t from 'tap';
import fc from 'fast-check';
import { JsonFloat, jsonBody, jsonFloat, jsonIntegerLength, jsonLength, jsonStringLength, parseJson, RawJson, stringifyJson } from '../../src/json/index.js';

t.test('integers beyond 2^53 parse to exact bigints and safe integers stay numbers', async (t) => {
  const v = parseJson('{"a": 9158179788527662767, "b": -9223372036854775808, "c": 9007199254740991, "d": 12}') as Record<
    string,
    unknown
  >;
  t.equal(v['a'], 9158179788527662767n);
  t.equal(v['b'], -9223372036854775808n);
  t.equal(v['c'], 9007199254740991);
  t.equal(v['d'], 12);
});

t.test('numbers with a fraction or exponent keep their source text', async (t) => {
  const v = parseJson('[1.0, 1.50, 2e3, -0.0, 1E-7]') as JsonFloat[];
  t.ok(v.every((x) => x instanceof JsonFloat));
  t.same(
    v.map((x) => x.text),
    ['1.0', '1.50', '2e3', '-0.0', '1E-7'],
  );
  t.equal(v[1]!.valueOf(), 1.5);
  t.equal(+v[2]!, 2000);
  t.equal(stringifyJson(v), '[1.0,1.50,2e3,-0.0,1E-7]');
});

t.test('malformed JSON is an INVALID_JSON error', async (t) => {
  for (const bad of ['{"a": }', '{"a": 1', '[1,]', 'nope', '', '{"a": 01}', '{"a": NaN}']) {
    t.throws(() => parseJson(bad), { code: 'INVALID_JSON' }, bad);
  }
});

t.test('duplicate keys keep the last value, as JSON.parse does', async (t) => {
  t.same(parseJson('{"a": 1, "a": 2}'), JSON.parse('{"a": 1, "a": 2}'));
});

t.test('a __proto__ key is plain data', async (t) => {
  const v = parseJson('{"__proto__": {"x": 1}}') as Record<string, unknown>;
  t.equal(Object.getPrototypeOf(v), Object.prototype);
  t.same(Object.keys(v), ['__proto__']);
  t.equal(stringifyJson(v), '{"__proto__":{"x":1}}');
});

t.test('a UTF-8 byte order mark before the document is ignored', async (t) => {
  t.same(parseJson('\ufeff{"a": 1}'), { a: 1 });
});

t.test('jsonFloat always writes a decimal point or exponent and rejects non-finite numbers', async (t) => {
  t.equal(jsonFloat(1).text, '1.0');
  t.equal(jsonFloat(-3).text, '-3.0');
  t.equal(jsonFloat(0.25).text, '0.25');
  t.equal(jsonFloat(-0).text, '-0.0');
  t.equal(jsonFloat(1e21).text, '1e+21');
  t.equal(stringifyJson({ f: jsonFloat(2) }), '{"f":2.0}');
  t.throws(() => jsonFloat(NaN), TypeError);
  t.throws(() => jsonFloat(Infinity), TypeError);
});

t.test('a JsonFloat must be a JSON number with a fraction or exponent', async (t) => {
  t.throws(() => new JsonFloat('1'));
  t.throws(() => new JsonFloat('1.'));
  t.throws(() => new JsonFloat('abc'));
  t.equal(new JsonFloat('3.25e-2').text, '3.25e-2');
});

t.test('stringifyJson writes bigints as digits and omits undefined members', async (t) => {
  const value = { id: 9158179788527662767n, neg: -5n, skip: undefined, list: [1, undefined, 'x'], nested: { f: new JsonFloat('1.0') } };
  t.equal(stringifyJson(value), '{"id":9158179788527662767,"neg":-5,"list":[1,null,"x"],"nested":{"f":1.0}}');
});

t.test('stringifyJson matches JSON.stringify for plain values, with and without indentation', async (t) => {
  const plain = {
    s: 'quote " backslash \\ newline \n tab \t nul \u0000 emoji 😀 lone \ud800',
    n: [0, -0, 1.5, 1e21, 1e-7, NaN, Infinity],
    b: [true, false, null],
    empty: { o: {}, a: [] },
    date: new Date(0),
    fn: () => 1,
    deep: { x: [{ y: [[]] }] },
  };
  t.equal(stringifyJson(plain), JSON.stringify(plain));
  t.equal(stringifyJson(plain, 2), JSON.stringify(plain, null, 2));
  t.equal(stringifyJson('top'), '"top"');
  t.equal(stringifyJson(12n), '12');
});

t.test('pretty output with bigints matches JSON.stringify with the digits in place', async (t) => {
  const value = { 'snapshot-id': 2701171901096418979n, list: [1n, 2] };
  t.equal(stringifyJson(value, 2), '{\n  "snapshot-id": 2701171901096418979,\n  "list": [\n    1,\n    2\n  ]\n}');
});

t.test('strings that look like the internal bigint markers survive unchanged', async (t) => {
  const value = { tricky: '\u0000123', other: '\u00001.5', id: 9158179788527662767n, key: { '\u000077': 1n } };
  const text = stringifyJson(value);
  const back = parseJson(text) as Record<string, unknown>;
  t.equal(back['tricky'], '\u0000123');
  t.equal(back['other'], '\u00001.5');
  t.equal(back['id'], 9158179788527662767n);
  t.same(back['key'], { '\u000077': 1 });
});

t.test('stringifyJson honours toJSON and refuses a top-level undefined', async (t) => {
  t.equal(stringifyJson({ a: { toJSON: () => ({ b: 7n }) } }), '{"a":{"b":7}}');
  t.throws(() => stringifyJson(undefined), TypeError);
});

t.test('parse then stringify reproduces compact JSON byte for byte', async (t) => {
  const text = '{"format-version":2,"ids":[9158179788527662767,-1,0],"f":[1.0,2.50e10],"s":"é\\"x","o":{},"a":[],"t":true,"n":null}';
  t.equal(stringifyJson(parseJson(text)), text);
});

t.test('numbers inside strings, escaped quotes and keys are never touched', async (t) => {
  const v = parseJson('{"a 1.5": "x 9158179788527662767 \\" 2.5", "k": [1.5, "3.0"], "12345678901234567890": 1}') as Record<string, unknown>;
  t.equal(v['a 1.5'], 'x 9158179788527662767 " 2.5');
  t.same(v['k'], [new JsonFloat('1.5'), '3.0']);
  t.equal(v['12345678901234567890'], 1);
});

t.test('invalid numbers are rejected even where a fast path would have quoted them', async (t) => {
  for (const bad of [
    '{1.5: 2}',
    '{9158179788527662767 : 2}',
    `{"a": 1, 2.5${' '.repeat(100)}: 3}`,
    '[1.5.5]',
    '[01.5]',
    '[1.]',
    '[.5]',
    '[1e]',
    '[12345678901234567890abc]',
    '[1.5 2.5]',
    '["unterminated 1.5]',
    '{"a": 1.5',
  ]) {
    t.throws(() => parseJson(bad), { code: 'INVALID_JSON' }, bad);
  }
});

t.test('strings holding U+0000 next to digits parse exactly', async (t) => {
  const v = parseJson('{"a": "\\u00001", "b": 1.5, "c": 9158179788527662767}') as Record<string, unknown>;
  t.equal(v['a'], '\u00001');
  t.same(v['b'], new JsonFloat('1.5'));
  t.equal(v['c'], 9158179788527662767n);
});

t.test('a __proto__ member holding a float or bigint is plain data', async (t) => {
  const v = parseJson('{"__proto__": 9158179788527662767, "x": {"__proto__": [1.5]}}') as Record<string, any>;
  t.equal(Object.getPrototypeOf(v), Object.prototype);
  t.equal(Object.getOwnPropertyDescriptor(v, '__proto__')?.value, 9158179788527662767n);
  t.same(Object.getOwnPropertyDescriptor(v['x'], '__proto__')?.value, [new JsonFloat('1.5')]);
});

t.test('extreme but valid numbers keep their text or digits', async (t) => {
  const v = parseJson('[1E400, -0.0, -9223372036854775808, 123456789012345678901234567890, 1e-400, 0.1e+2]') as unknown[];
  t.same(v, [
    new JsonFloat('1E400'),
    new JsonFloat('-0.0'),
    -9223372036854775808n,
    123456789012345678901234567890n,
    new JsonFloat('1e-400'),
    new JsonFloat('0.1e+2'),
  ]);
});

t.test('jsonLength is the length of what stringifyJson writes, escaped NULs and marker look-alikes included', async (t) => {
  const leaf = fc.oneof(
    fc.bigInt(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => jsonFloat(d)),
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.constantFrom('\u0000123', '\\u0000', 'a\u0000b', '\u0000r0', '\ud800', '"\\', undefined, new Date(0), -0, 1e21, Infinity),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
  );
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string({ unit: 'binary' }), tie('node'), { maxKeys: 4 })),
  })).node;
  fc.assert(fc.property(value, (v) => v === undefined || jsonLength(v) === stringifyJson(v).length), { numRuns: 2000 });
  t.pass('2000 values');
});

t.test('integer and string lengths are those stringifyJson writes, at the edges of the safe range too', async (t) => {
  const edges = [0, -0, 9, 10, -10, 999_999_999_999_999, 1e15, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 1e21, -1e300];
  for (const n of edges) t.equal(jsonIntegerLength(n), stringifyJson(n).length, `number ${n}`);
  for (const n of [0n, -1n, 9_007_199_254_740_991n, 9_007_199_254_740_992n, -9_007_199_254_740_993n, 10n ** 40n]) t.equal(jsonIntegerLength(n), stringifyJson(n).length, `bigint ${n}`);
  fc.assert(fc.property(fc.oneof(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), fc.bigInt()), (n) => jsonIntegerLength(n) === stringifyJson(n).length), { numRuns: 5000 });
  fc.assert(fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' })), (s) => jsonStringLength(s) === stringifyJson(s).length), { numRuns: 5000 });
});

t.test('RawJson is embedded verbatim, beside bigints, and never re-quoted', async (t) => {
  const text = stringifyJson({ a: new RawJson('[{"x":1},"\\u0000"]'), b: 12345678901234567890n, c: '\u0000r0' });
  t.equal(text, '{"a":[{"x":1},"\\u0000"],"b":12345678901234567890,"c":"\\u0000r0"}');
  t.same(parseJson(text), { a: [{ x: 1 }, '\u0000'], b: 12345678901234567890n, c: '\u0000r0' });
});

t.test('jsonBody is stringifyJson: the string itself unless a RawJson holds bytes, then UTF-8 with those bytes embedded as they are, whatever the values', async (t) => {
  const page = Buffer.from('[{"file-path":"s3://b/é/0.parquet","n":1}]', 'utf8');
  const value = { a: new RawJson(page), s: new RawJson('{"x":[1,2]}'), b: 12345678901234567890n, f: jsonFloat(30), c: '\u0000r0', u: undefined, z: 'ü' };
  const bytes = jsonBody(value);
  t.ok(Buffer.isBuffer(bytes), 'bytes, for a RawJson of bytes');
  t.equal(bytes.toString('utf8'), stringifyJson(value), 'the same text as stringifyJson');
  t.equal(bytes.toString('utf8'), '{"a":[{"file-path":"s3://b/é/0.parquet","n":1}],"s":{"x":[1,2]},"b":12345678901234567890,"f":30.0,"c":"\\u0000r0","z":"ü"}');
  const textOnly = { s: new RawJson('{"x":[1,2]}'), b: 12345678901234567890n, z: 'ü' };
  t.equal(jsonBody(textOnly), stringifyJson(textOnly), 'a string, for RawJson of strings only: nothing is encoded apart');
  // a view into a larger buffer: only its own bytes are embedded
  const pool = Buffer.from('xx[1,2]yy');
  t.equal(jsonBody({ v: new RawJson(pool.subarray(2, 7)) }).toString('utf8'), '{"v":[1,2]}');
  fc.assert(
    fc.property(fc.jsonValue(), fc.jsonValue(), fc.boolean(), (x, y, asBytes) => {
      const text = JSON.stringify(y) ?? 'null';
      const v = { x, raw: new RawJson(asBytes ? Buffer.from(text, 'utf8') : text) };
      return jsonBody(v).toString('utf8') === stringifyJson(v);
    }),
    { numRuns: 2000 },
  );
});
