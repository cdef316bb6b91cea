import t from 'tap';
import { checkViewRequirements, parseViewRequirement } from '../../../src/commits/views/index.js';
import { parseViewMetadata } from '../../../src/iceberg/index.js';
import { VIEW } from '../../iceberg/view-samples.js';

const base = parseViewMetadata(VIEW);
const UUID = 'fa6506c3-7681-40c8-86dc-e36561f83385';

t.test('assert-view-uuid is read, its type case-insensitively', async (t) => {
  t.same(parseViewRequirement({ type: 'assert-view-uuid', uuid: UUID }, 'requirements[0]'), { type: 'assert-view-uuid', uuid: UUID });
  t.same(parseViewRequirement({ type: 'Assert-View-UUID', uuid: UUID }, 'requirements[0]'), { type: 'assert-view-uuid', uuid: UUID });
});

t.test('a malformed requirement is BAD_REQUEST naming its path', async (t) => {
  t.throws(() => parseViewRequirement('assert-view-uuid', 'requirements[0]'), { code: 'BAD_REQUEST', message: /'requirements\[0\]'/ });
  t.throws(() => parseViewRequirement({ uuid: UUID }, 'requirements[0]'), { code: 'BAD_REQUEST', message: /'requirements\[0\]\.type'/ });
  t.throws(() => parseViewRequirement({ type: 'assert-view-uuid' }, 'requirements[1]'), { code: 'BAD_REQUEST', message: /'requirements\[1\]\.uuid'/ });
  t.throws(() => parseViewRequirement({ type: 'assert-view-uuid', uuid: 7 }, 'requirements[0]'), { code: 'BAD_REQUEST' });
  t.throws(() => parseViewRequirement({ type: 'assert-the-moon', uuid: UUID }, 'requirements[0]'), { code: 'BAD_REQUEST', message: /'requirements\[0\]\.type'/ });
});

t.test('a table requirement on a view is VALIDATION_FAILED (Java UpdateRequirement.validate(ViewMetadata))', async (t) => {
  for (const type of ['assert-table-uuid', 'assert-create', 'assert-ref-snapshot-id', 'assert-current-schema-id']) {
    t.throws(() => parseViewRequirement({ type, uuid: UUID }, 'requirements[0]'), { code: 'VALIDATION_FAILED' }, type);
  }
});

t.test('the view UUID is compared ignoring case', async (t) => {
  t.doesNotThrow(() => checkViewRequirements(base, []));
  t.doesNotThrow(() => checkViewRequirements(base, [{ type: 'assert-view-uuid', uuid: UUID }]));
  t.doesNotThrow(() => checkViewRequirements(base, [{ type: 'assert-view-uuid', uuid: UUID.toUpperCase() }]));
});

t.test('another view UUID is COMMIT_FAILED', async (t) => {
  t.throws(() => checkViewRequirements(base, [{ type: 'assert-view-uuid', uuid: '00000000-0000-0000-0000-000000000000' }]), { code: 'COMMIT_FAILED' });
  t.throws(
    () =>
      checkViewRequirements(base, [
        { type: 'assert-view-uuid', uuid: UUID },
        { type: 'assert-view-uuid', uuid: 'other' },
      ]),
    { code: 'COMMIT_FAILED' },
    'every requirement must hold',
  );
});
