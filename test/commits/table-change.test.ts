import t from 'tap';
import { parseTableChange, parseTableIdentifier, parseTransaction } from '../../src/commits/index.js';
import { parseJson } from '../../src/json/index.js';

t.test('a commit request reads its identifier, requirements and updates', async (t) => {
  const change = parseTableChange(
    parseJson(`{"identifier": {"namespace": ["a", "b.c"], "name": "t"},
      "requirements": [{"type": "assert-current-schema-id", "current-schema-id": 0}],
      "updates": [{"action": "set-properties", "updates": {"k": "v"}}]}`),
    '',
    false,
  );
  t.same(change, {
    identifier: { namespace: ['a', 'b.c'], name: 't' },
    requirements: [{ type: 'assert-current-schema-id', currentSchemaId: 0 }],
    updates: [{ action: 'set-properties', updates: { k: 'v' } }],
  });
});

t.test('missing requirements and updates read as none, as Java\'s parser does', async (t) => {
  t.same(parseTableChange(parseJson('{}'), '', false), { requirements: [], updates: [] });
  t.same(parseTableChange(parseJson('{"identifier": null, "requirements": null, "updates": null}'), '', false), { requirements: [], updates: [] });
});

t.test('an identifier without a namespace is in the empty namespace', async (t) => {
  t.same(parseTableIdentifier(parseJson('{"name": "t"}'), 'identifier'), { namespace: [], name: 't' });
});

t.test('a malformed commit request is a bad request naming the field', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['[]', /'\(body\)'/],
    ['{"requirements": {}}', /'requirements'/],
    ['{"updates": [{"action": "set-location"}]}', /'updates\[0\]\.location'/],
    ['{"requirements": [{}, {"type": "assert-create"}]}', /'requirements\[0\]\.type'/],
    ['{"identifier": {"namespace": "a", "name": "t"}}', /'identifier\.namespace'/],
    ['{"identifier": {"namespace": ["a"]}}', /'identifier\.name'/],
    ['{"identifier": {"namespace": [1], "name": "t"}}', /'identifier\.namespace\[0\]'/],
  ];
  for (const [json, path] of cases) t.throws(() => parseTableChange(parseJson(json), '', false), { code: 'BAD_REQUEST', message: path }, json);
});

t.test('a transaction has one or more table changes, each naming its table', async (t) => {
  const changes = parseTransaction(
    parseJson(`{"table-changes": [
      {"identifier": {"namespace": ["db"], "name": "a"}, "requirements": [], "updates": [{"action": "remove-properties", "removals": ["x"]}]},
      {"identifier": {"namespace": ["db"], "name": "b"}, "requirements": [{"type": "assert-create"}], "updates": []}]}`),
  );
  t.same(changes.map((c) => c.identifier?.name), ['a', 'b']);
  const refuse = (json: string, path: RegExp) => t.throws(() => parseTransaction(parseJson(json)), { code: 'BAD_REQUEST', message: path }, json);
  refuse('{}', /'table-changes'/);
  refuse('{"table-changes": {}}', /'table-changes'/);
  refuse('{"table-changes": []}', /'table-changes'/);
  refuse('{"table-changes": [{"identifier": {"namespace": [], "name": "a"}}, {"updates": []}]}', /'table-changes\[1\]\.identifier'/);
  refuse('{"table-changes": [{"identifier": {"namespace": [], "name": "a"}, "updates": [{"action": "nope"}]}]}', /'table-changes\[0\]\.updates\[0\]\.action'/);
});
