import t, { type Test } from 'tap';
import { expressionToJson, expressionToString, MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_NODES, MAX_IN_VALUES, parseExpression, type Expression } from '../../../src/iceberg/index.js';
import { parseJson, stringifyJson } from '../../../src/json/index.js';
import { isIcefrontError } from '../../../src/errors/index.js';
import { loadVectors, SKIP_NO_SHARED } from '../literals/vectors.js';

interface ExpressionVector {
  test: string;
  json_text: string;
  expect: 'valid' | 'error';
  error_message: string | null;
}

const file = loadVectors<{ vectors: ExpressionVector[] }>('expression_json_vectors.json');
const skip = !file && SKIP_NO_SHARED;

/** Parse from text the way the HTTP layer will (lossless numbers). */
function parse(text: string): Expression {
  return parseExpression(parseJson(text));
}

function legacy(text: string): string {
  return stringifyJson(expressionToJson(parse(text)));
}

function canonical(text: string): string {
  return stringifyJson(parseJson(text));
}

function invalidFilter(t: Test, text: string, name: string, message?: RegExp | string): void {
  let caught: unknown;
  try {
    parse(text);
  } catch (err) {
    caught = err;
  }
  t.ok(isIcefrontError(caught, 'INVALID_FILTER'), `${name}: INVALID_FILTER`);
  if (message !== undefined && caught instanceof Error) {
    if (typeof message === 'string') t.equal(caught.message, message, `${name}: message`);
    else t.match(caught.message, message, `${name}: message`);
  }
}

t.test('every must-fail vector is rejected as INVALID_FILTER with Java\'s message', { skip }, async (t) => {
  const errors = file!.vectors.filter((v) => v.expect === 'error');
  t.ok(errors.length > 0, 'the file has must-fail vectors');
  for (const v of errors) invalidFilter(t, v.json_text, v.test, v.error_message ?? undefined);
});

t.test('every valid vector parses and writes back the canonical legacy JSON of its test', { skip }, async (t) => {
  // Java's tests pair an input with its expected output; the expected one is the vector that
  // writes back unchanged, and every other vector of the same test must write to it.
  const groups = new Map<string, ExpressionVector[]>();
  for (const v of file!.vectors.filter((x) => x.expect === 'valid')) {
    groups.set(v.test, [...(groups.get(v.test) ?? []), v]);
  }
  t.ok(groups.size > 0, 'the file has valid vectors');
  for (const [test, vectors] of groups) {
    const fixed = vectors.filter((v) => legacy(v.json_text) === canonical(v.json_text));
    t.equal(fixed.length, 1, `${test}: exactly one vector is its own legacy form`);
    for (const v of vectors) t.equal(legacy(v.json_text), canonical(fixed[0]!.json_text), `${test}: ${canonical(v.json_text)}`);
  }
});

t.test('parse(write(parse(x))) equals parse(x) for every valid vector', { skip }, async (t) => {
  for (const v of file!.vectors.filter((x) => x.expect === 'valid')) {
    const once = parse(v.json_text);
    const twice = parseExpression(parseJson(stringifyJson(expressionToJson(once))));
    t.same(twice, once, v.test);
  }
});

t.test('bare booleans and literal objects are constants', async (t) => {
  t.same(parse('true'), { kind: 'true' });
  t.same(parse('{"type":"LITERAL","value":false}'), { kind: 'false' });
  t.same(parse('{"type":"true"}'), { kind: 'true' }, 'the spec\'s deprecated object form is accepted');
  invalidFilter(t, '{"type":"literal","value":1}', 'a non-boolean constant');
});

t.test('constant sub-expressions simplify as Java\'s Expressions.and/or/not do', async (t) => {
  const eq = '{"type":"eq","term":"a","value":1}';
  t.equal(legacy(`{"type":"and","left":true,"right":${eq}}`), canonical(eq));
  t.equal(legacy(`{"type":"or","left":${eq},"right":true}`), 'true');
  t.equal(legacy(`{"type":"not","child":{"type":"not","child":${eq}}}`), canonical(eq));
  t.equal(legacy('{"type":"not","child":false}'), 'true');
});

t.test('operation names are case-insensitive and accept underscores, like Operation.fromString', async (t) => {
  t.equal(legacy('{"type":"LT_EQ","term":"a","value":1}'), '{"type":"lt-eq","term":"a","value":1}');
  t.equal(legacy('{"type":"Not-Null","term":"a"}'), '{"type":"not-null","term":"a"}');
});

t.test('literals are written back exactly as they came in', async (t) => {
  const text = '{"type":"in","term":"x","values":[9007199254740993,1.50,1e3,"2024-01-01",true,-0]}';
  t.equal(legacy(text), canonical(text), 'big longs, float text, strings and booleans survive');
  t.equal(legacy('{"type":"eq","term":"x","value":{"type":"literal","value":"a","data-type":"string"}}'), '{"type":"eq","term":"x","value":"a"}');
});

t.test('legacy terms: reference objects and transforms', async (t) => {
  t.equal(legacy('{"type":"eq","term":{"type":"reference","term":"a.b"},"value":1}'), '{"type":"eq","term":"a.b","value":1}');
  t.equal(
    legacy('{"type":"eq","term":{"type":"transform","transform":"BUCKET[ 16 ]","term":"id"},"value":1}'),
    '{"type":"eq","term":{"type":"transform","transform":"bucket[16]","term":"id"},"value":1}',
    'transform text is written canonically, as Java\'s Transform.toString',
  );
  for (const tr of ['identity', 'year', 'month', 'day', 'hour', 'void', 'truncate[4]']) {
    const text = `{"type":"is-null","term":{"type":"transform","transform":"${tr}","term":"c"}}`;
    t.equal(legacy(text), canonical(text), tr);
  }
  invalidFilter(t, '{"type":"eq","term":{"type":"transform","transform":"zorder","term":"id"},"value":1}', 'unknown transform', /zorder/);
  invalidFilter(t, '{"type":"eq","term":{"type":"column","term":"id"},"value":1}', 'unknown term type', /column/);
});

t.test('the new form: references, apply, typed literals, child/left/right', async (t) => {
  const legacyEq = '{"type":"eq","term":{"type":"transform","transform":"bucket[16]","term":"id"},"value":3}';
  t.equal(
    legacy('{"type":"eq","left":{"type":"apply","function":"bucket","arguments":[16,{"type":"reference","name":"id"}]},"right":3}'),
    legacyEq,
  );
  t.equal(
    legacy('{"type":"eq","left":{"type":"apply","function":{"catalog":"iceberg_functions","identifier":["bucket"]},"arguments":[{"type":"literal","value":16},{"type":"reference","name":"id"}]},"right":3}'),
    legacyEq,
    'catalog-qualified function reference',
  );
  t.equal(
    legacy('{"type":"eq","left":{"type":"apply","function":["bucket"],"arguments":[16,{"type":"reference","name":"id"}]},"right":3}'),
    legacyEq,
    'identifier array',
  );
  t.equal(
    legacy('{"type":"gt-eq","left":{"type":"apply","function":"day","arguments":[{"type":"reference","name":"ts"}]},"right":{"type":"literal","value":"2024-01-01","data-type":"date"}}'),
    '{"type":"gt-eq","term":{"type":"transform","transform":"day","term":"ts"},"value":"2024-01-01"}',
  );
  t.equal(legacy('{"type":"lt","left":5,"right":{"type":"reference","name":"a"}}'), '{"type":"gt","term":"a","value":5}', 'a literal on the left flips the comparison');
  t.equal(legacy('{"type":"is-nan","child":{"type":"reference","name":"f"}}'), '{"type":"is-nan","term":"f"}');
  t.equal(
    legacy('{"type":"not-in","child":{"type":"reference","name":"d"},"values":{"type":"literals","values":["1.10","2.00"],"data-type":"decimal(9,2)"}}'),
    '{"type":"not-in","term":"d","values":["1.10","2.00"]}',
  );
  t.equal(legacy('{"type":"in","child":{"type":"reference","name":"a"},"values":[1,{"type":"literal","value":2}]}'), '{"type":"in","term":"a","values":[1,2]}');
});

t.test('new-form shapes that cannot be evaluated are rejected', async (t) => {
  const ref = '{"type":"reference","name":"a"}';
  invalidFilter(t, `{"type":"eq","left":${ref},"right":${ref}}`, 'two references');
  invalidFilter(t, '{"type":"eq","left":1,"right":2}', 'two literals');
  invalidFilter(t, `{"type":"eq","left":${ref},"right":null}`, 'a null literal');
  invalidFilter(t, `{"type":"starts-with","left":"ab","right":${ref}}`, 'starts-with with the literal first');
  invalidFilter(t, '{"type":"is-null","child":{"type":"reference","id":7}}', 'a bound reference by id', /field id/);
  invalidFilter(t, '{"type":"is-null","child":5}', 'a literal as the tested value');
  invalidFilter(t, `{"type":"eq","left":{"type":"apply","function":"sql_functions.upper","arguments":[${ref}]},"right":"A"}`, 'an unknown function');
  invalidFilter(t, `{"type":"eq","left":{"type":"apply","function":["ns","bucket"],"arguments":[16,${ref}]},"right":1}`, 'a namespaced function');
  invalidFilter(t, `{"type":"eq","left":{"type":"apply","function":"bucket","arguments":[0,${ref}]},"right":1}`, 'bucket(0, …)');
  invalidFilter(t, `{"type":"eq","left":{"type":"apply","function":"bucket","arguments":[${ref}]},"right":1}`, 'bucket with one argument');
  invalidFilter(t, `{"type":"eq","left":{"type":"literal","value":"x","data-type":"date"},"right":${ref}}`, 'a typed literal that is not of its type');
  invalidFilter(t, `{"type":"eq","left":${ref},"right":{"type":"literal","value":"NaN","data-type":"double"}}`, 'a NaN literal', /NaN/);
  invalidFilter(t, `{"type":"eq","left":${ref},"right":{"type":"literal","value":"x","data-type":"geometry"}}`, 'an unsupported data-type');
  invalidFilter(t, `{"type":"in","child":${ref},"values":{"type":"literals","values":[1]}}`, 'typed literals without data-type', /data-type/);
});

t.test('malformed shapes are INVALID_FILTER naming what is wrong', async (t) => {
  invalidFilter(t, 'null', 'null', /null/);
  invalidFilter(t, '"a = 1"', 'a string', /non-object/);
  invalidFilter(t, '[true]', 'an array', /non-object/);
  invalidFilter(t, '{"term":"a","value":1}', 'no type', /type/);
  invalidFilter(t, '{"type":5}', 'a non-string type', /type/);
  invalidFilter(t, '{"type":"eq","value":1}', 'no term', /term/);
  invalidFilter(t, '{"type":"not"}', 'not without child', /child/);
  invalidFilter(t, '{"type":"in","term":"a","values":1}', 'non-array values', /non-array/);
  invalidFilter(t, '{"type":"eq","term":"a","value":{"x":1}}', 'an object literal', /literal/);
  invalidFilter(t, '{"type":"eq","term":"a","value":[1]}', 'an array literal', /literal/);
  invalidFilter(t, '{"type":"eq","term":"a","value":null}', 'a null literal', /literal/);
  invalidFilter(t, '{"type":"eq","term":"a","value":{"type":"ref","value":1}}', 'a literal object of another type', /ref/);
  invalidFilter(t, '{"type":"eq","term":"a","value":99999999999999999999}', 'an integer beyond 64 bits');
  invalidFilter(t, '{"type":"st-intersects","term":"g","value":"x"}', 'a geospatial operation', /ST_INTERSECTS/);
  invalidFilter(t, '{"type":"in","term":"a","values":[1,[2]]}', 'an array inside values');
});

t.test('nesting deeper than the limit is rejected without exhausting the stack', async (t) => {
  const deep = (n: number): unknown => {
    let e: unknown = { type: 'eq', term: 'a', value: 1 };
    for (let i = 0; i < n; i += 1) e = { type: 'not', child: e };
    return e;
  };
  t.doesNotThrow(() => parseExpression(deep(MAX_EXPRESSION_DEPTH - 1)), 'at the limit');
  t.throws(() => parseExpression(deep(MAX_EXPRESSION_DEPTH)), { code: 'INVALID_FILTER' }, 'just past the limit');
  t.throws(() => parseExpression(deep(200_000)), { code: 'INVALID_FILTER' }, 'far past the limit');
  let chain: unknown = { type: 'eq', term: 'a', value: 1 };
  for (let i = 0; i < 5000; i += 1) chain = { type: 'and', left: chain, right: true };
  t.throws(() => parseExpression(chain), { code: 'INVALID_FILTER' }, 'a long left-deep and chain');
});

t.test('a filter has at most MAX_EXPRESSION_NODES nodes and an in list at most MAX_IN_VALUES values', async (t) => {
  // a balanced tree of `or`s, shallow enough for the depth limit
  const tree = (leaves: number): unknown =>
    leaves === 1 ? { type: 'eq', term: 'a', value: 1 } : { type: 'or', left: tree(Math.floor(leaves / 2)), right: tree(leaves - Math.floor(leaves / 2)) };
  t.doesNotThrow(() => parseExpression(tree(Math.floor((MAX_EXPRESSION_NODES + 1) / 2))), 'a tree at the node limit');
  t.throws(() => parseExpression(tree(MAX_EXPRESSION_NODES / 2 + 1)), { code: 'INVALID_FILTER', message: /more than 100000 nodes/ }, 'one leaf more');
  const values = (n: number) => ({ type: 'in', term: 'a', values: Array.from({ length: n }, (_, i) => i) });
  t.doesNotThrow(() => parseExpression(values(MAX_IN_VALUES)), 'an in list at the limit');
  t.throws(() => parseExpression(values(MAX_IN_VALUES + 1)), { code: 'INVALID_FILTER', message: /50001 values, more than 50000/ }, 'one value more');
  t.throws(() => parseExpression({ ...values(MAX_IN_VALUES + 1), type: 'not-in' }), { code: 'INVALID_FILTER' }, 'not-in too');
});

t.test('expressionToString reads like Java\'s toString', async (t) => {
  t.equal(
    expressionToString(parse('{"type":"or","left":{"type":"lt","term":"a","value":5},"right":{"type":"not","child":{"type":"is-null","term":"b"}}}')),
    '(a < 5 or not(is_null(b)))',
  );
  t.equal(expressionToString(parse('{"type":"not-in","term":{"type":"transform","transform":"bucket[8]","term":"id"},"values":[1,2]}')), 'bucket[8](id) not in (1, 2)');
  t.equal(expressionToString(parse('{"type":"starts-with","term":"s","value":"ab"}')), 's startsWith "ab"');
});
