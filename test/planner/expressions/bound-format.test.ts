import t from 'tap';
import { parseExpression } from '../../../src/iceberg/index.js';
import { parseJson, stringifyJson } from '../../../src/json/index.js';
import { bind, boundExpressionToJson, boundExpressionToString } from '../../../src/planner/expressions/index.js';
import { STRUCT } from './schema.js';

function boundJson(text: string): string {
  return stringifyJson(boundExpressionToJson(bind(parseExpression(parseJson(text)), STRUCT)));
}

t.test('bound literals are written as JSON single values of the term type', async (t) => {
  t.equal(boundJson('{"type":"eq","term":"dt","value":19723}'), '{"type":"eq","term":"dt","value":"2024-01-01"}', 'a date from days');
  t.equal(
    boundJson('{"type":"gt","term":"tstz","value":"2024-01-01T02:00:00+02:00"}'),
    '{"type":"gt","term":"tstz","value":"2024-01-01T00:00:00+00:00"}',
    'a timestamptz normalised to UTC',
  );
  t.equal(boundJson('{"type":"eq","term":"bin","value":"0a0b"}'), '{"type":"eq","term":"bin","value":"0A0B"}', 'bytes as upper-case hex');
  t.equal(boundJson('{"type":"in","term":"dec","values":["3.1",4]}'), '{"type":"in","term":"dec","values":["3.10","4.00"]}', 'decimals at the column scale');
  t.equal(boundJson('{"type":"eq","term":"f","value":1}'), '{"type":"eq","term":"f","value":1.0}', 'floats keep a decimal point');
  t.equal(boundJson('{"type":"eq","term":"l","value":9007199254740993}'), '{"type":"eq","term":"l","value":9007199254740993}');
  t.equal(
    boundJson('{"type":"lt","term":{"type":"transform","transform":"bucket[16]","term":"s"},"value":3}'),
    '{"type":"lt","term":{"type":"transform","transform":"bucket[16]","term":"s"},"value":3}',
  );
  t.equal(boundJson('{"type":"is-null","term":"l"}'), 'false', 'folded predicates are constants');
});

t.test('writing a bound filter and binding it again gives the same bound filter', async (t) => {
  const filters = [
    '{"type":"and","left":{"type":"gt-eq","term":"tstz","value":"2024-01-01T02:00:00+02:00"},"right":{"type":"not-in","term":"u","values":["F79C3E09-677C-4BBD-A479-3F349CB785E7","00000000-0000-0000-0000-000000000000"]}}',
    '{"type":"or","left":{"type":"eq","term":"tsns","value":1704067200000000},"right":{"type":"lt","term":"dec","value":"3.145"}}',
    '{"type":"not","child":{"type":"starts-with","term":"st.inner.deep","value":"x"}}',
  ];
  for (const f of filters) {
    const once = bind(parseExpression(parseJson(f)), STRUCT);
    const again = bind(parseExpression(parseJson(stringifyJson(boundExpressionToJson(once)))), STRUCT);
    t.same(again, once, f);
  }
});

t.test('boundExpressionToString shows converted values', async (t) => {
  t.equal(boundExpressionToString(bind(parseExpression(parseJson('{"type":"eq","term":"dt","value":19723}')), STRUCT)), 'dt == "2024-01-01"');
});
