import t from 'tap';
import { closest, editDistance } from '../../src/config/schema-errors.js';

t.test('edit distance counts an adjacent swap as one edit', async (t) => {
  t.equal(editDistance('prot', 'port'), 1);
  t.equal(editDistance('warehous', 'warehouse'), 1);
  t.equal(editDistance('', 'abc'), 3);
  t.equal(editDistance('same', 'same'), 0);
});

t.test('closest: the nearest known name within a third of its length, case and _ aside', async (t) => {
  t.equal(closest('warehous', ['type', 'warehouse', 'locations']), 'warehouse');
  t.equal(closest('Token_Secret', ['batch-size', 'token-secret']), 'token-secret');
  t.equal(closest('of', ['on', 'off']), 'off', 'a tie goes to the name it begins');
  t.equal(closest('colour', ['host', 'port']), undefined, 'nothing near');
  t.equal(closest('x', []), undefined);
});
