import t from 'tap';
import { hasSequentialIds, specCompatibleWith, specLastAssignedFieldId } from '../../src/commits/spec-rules.js';

const spec = (fieldId: number, transform: string, name = 'p') => ({ specId: 0, fields: [{ sourceId: 1, fieldId, name, transform }] });

t.test('specs are compatible by source, transform text and name, whatever their field ids', async (t) => {
  t.equal(specCompatibleWith(spec(1000, 'bucket[4]'), spec(1009, 'BUCKET[4]')), true);
  t.equal(specCompatibleWith(spec(1000, 'bucket[4]'), spec(1000, 'bucket[4]', 'q')), false);
  t.equal(specCompatibleWith(spec(1000, 'bucket[4]'), { specId: 0, fields: [] }), false);
});

t.test('v1 sequential field ids and the last assigned field id of a spec', async (t) => {
  t.equal(hasSequentialIds(spec(1000, 'identity')), true);
  t.equal(hasSequentialIds(spec(1001, 'identity')), false);
  t.equal(specLastAssignedFieldId({ specId: 0, fields: [] }), 999);
  t.equal(specLastAssignedFieldId(spec(1500, 'identity')), 1500);
});
