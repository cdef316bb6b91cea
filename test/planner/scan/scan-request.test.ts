import t from 'tap';
import { isIcefrontError } from '../../../src/errors/index.js';
import { parseScanRequest } from '../../../src/planner/index.js';

function refusal(body: unknown): string {
  try {
    parseScanRequest(body);
  } catch (err) {
    if (isIcefrontError(err, 'INVALID_SCAN')) return err.message;
    throw err;
  }
  return '';
}

t.test('a misspelt member of a plan request is refused, naming it, not read as a whole-table plan', async (t) => {
  const message = refusal({ filte: { type: 'eq', term: 'region', value: 'EU' } });
  t.match(message, '"filte"', 'the unknown member is named');
  t.match(message, 'filter', 'and the members a request may have are listed');
  t.match(refusal({ select: ['a'], snapshot_id: 1, extra: true }), /members "snapshot_id", "extra"/, 'every unknown member is named');
});

t.test('every member of the spec’s PlanTableScanRequest is accepted', async (t) => {
  const request = parseScanRequest({
    select: ['a'],
    filter: true,
    'case-sensitive': false,
    'use-snapshot-schema': true,
    'stats-fields': ['a'],
    'min-rows-requested': 5,
    'start-snapshot-id': 1,
    'end-snapshot-id': 2,
  });
  t.same(request.select, ['a']);
  t.equal(request.caseSensitive, false);
  t.equal(request.useSnapshotSchema, true);
  t.same(request.statsFields, ['a']);
  t.equal(request.minRowsRequested, 5n);
  t.equal(request.startSnapshotId, 1n);
  t.equal(request.endSnapshotId, 2n);
  t.equal(parseScanRequest({ 'snapshot-id': 3 }).snapshotId, 3n);
});
