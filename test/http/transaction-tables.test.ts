import t from 'tap';
import { transactionTables } from '../../src/http/transaction-tables.js';

const change = (identifier?: unknown) => ({ ...(identifier !== undefined && { identifier }), requirements: [], updates: [] });

t.test('the tables of a transaction commit, in order, each named by its identifier', async (t) => {
  const body = { 'table-changes': [change({ namespace: ['a', 'b'], name: 't' }), change({ namespace: [], name: 'top' })] };
  t.same(transactionTables(body), [
    { namespace: ['a', 'b'], name: 't' },
    { namespace: [], name: 'top' },
  ]);
});

t.test('a body that does not name every table it changes is BAD_REQUEST', async (t) => {
  const refused: [string, unknown][] = [
    ['not an object', 'text'],
    ['an array', []],
    ['null', null],
    ['no table-changes', {}],
    ['table-changes an object', { 'table-changes': {} }],
    ['an empty table-changes', { 'table-changes': [] }],
    ['a change without identifier', { 'table-changes': [change({ namespace: ['a'], name: 't' }), change()] }],
    ['an identifier that is a string', { 'table-changes': [change('a.t')] }],
    ['a namespace that is a dotted string', { 'table-changes': [change({ namespace: 'a.b', name: 't' })] }],
    ['a level that is a number', { 'table-changes': [change({ namespace: ['a', 1], name: 't' })] }],
    ['no name', { 'table-changes': [change({ namespace: ['a'] })] }],
    ['a name that is a number', { 'table-changes': [change({ namespace: ['a'], name: 7 })] }],
    ['a change that is null', { 'table-changes': [null] }],
  ];
  for (const [what, body] of refused) t.throws(() => transactionTables(body), { code: 'BAD_REQUEST' }, what);
});
