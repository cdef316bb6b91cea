import t from 'tap';
import { inheritNumbers, RowIdAssigner } from '../../../src/planner/manifests/inheritance.js';
import { manifestFile } from './manifest-schemas.js';

const EXISTING = 0;
const ADDED = 1;
const DELETED = 2;

t.test('spec "Sequence Number Inheritance" for every status', async (t) => {
  const m = manifestFile('m.avro', { sequenceNumber: 12n, addedSnapshotId: 99n });
  t.same(inheritNumbers(m, ADDED, undefined, undefined, undefined), { snapshotId: 99n, dataSequenceNumber: 12n, fileSequenceNumber: 12n }, 'ADDED inherits everything');
  t.same(inheritNumbers(m, ADDED, 5n, 6n, 7n), { snapshotId: 5n, dataSequenceNumber: 6n, fileSequenceNumber: 7n }, 'explicit values are kept');
  t.same(inheritNumbers(m, EXISTING, undefined, 3n, undefined), { snapshotId: 99n, dataSequenceNumber: 3n, fileSequenceNumber: undefined }, 'EXISTING does not inherit sequence numbers');
  t.throws(() => inheritNumbers(m, EXISTING, 1n, undefined, undefined), /no data sequence number/, 'a live entry must end with a data sequence number');
  t.same(inheritNumbers(m, DELETED, 1n, undefined, undefined), { snapshotId: 1n, dataSequenceNumber: 12n, fileSequenceNumber: undefined }, 'a DELETED entry without one gets the manifest number (never used)');
  const v1 = manifestFile('m.avro', { sequenceNumber: 0n });
  t.same(inheritNumbers(v1, EXISTING, 1n, undefined, undefined), { snapshotId: 1n, dataSequenceNumber: 0n, fileSequenceNumber: 0n }, 'sequence number 0 (v1) is inherited whatever the status');
});

t.test('spec "First Row ID Inheritance": ids advance by record count over live entries without one', async (t) => {
  const ids = new RowIdAssigner(100n);
  t.equal(ids.assign(ADDED, 10n, undefined), 100n);
  t.equal(ids.assign(DELETED, 50n, undefined), undefined, 'DELETED entries get none and do not advance');
  t.equal(ids.assign(EXISTING, 5n, 7n), 7n, 'an explicit id is kept and does not advance');
  t.equal(ids.assign(EXISTING, 3n, undefined), 110n);
  t.equal(ids.next, 113n);
  t.equal(new RowIdAssigner(undefined).assign(ADDED, 1n, 4n), undefined, 'without a manifest first_row_id, every file reads none');
  t.equal(RowIdAssigner.appliesTo(manifestFile('m', { firstRowId: 1n })), true);
  t.equal(RowIdAssigner.appliesTo(manifestFile('m', { firstRowId: 1n, content: 1 })), false, 'delete manifests never assign');
  t.equal(RowIdAssigner.appliesTo(manifestFile('m')), false);
});
