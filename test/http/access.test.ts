import t from 'tap';
import { authorizesBody, OPEN_PATHS, REQUIREMENTS } from '../../src/http/access.js';
import { SPEC_PATHS } from '../../src/http/index.js';

t.test('every operation of the spec has a requirement (one missing would be refused, never let through)', async (t) => {
  const operations = SPEC_PATHS.filter((spec) => !OPEN_PATHS.has(spec.path)).flatMap((spec) => spec.methods.map((m) => `${m} ${spec.path}`));
  for (const operation of operations) t.ok(REQUIREMENTS.has(operation), operation);
  t.same([...REQUIREMENTS.keys()].filter((k) => !operations.includes(k)), ['GET /metrics', 'GET /'], 'and nothing else but /metrics and the status page');
});

t.test('the operations whose targets only their body names are read before they are forwarded', async (t) => {
  const read = [...REQUIREMENTS.keys()].filter(authorizesBody).sort();
  t.same(read, [
    'POST /v1/{prefix}/namespaces',
    'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/sign',
    'POST /v1/{prefix}/tables/rename',
    'POST /v1/{prefix}/transactions/commit',
    'POST /v1/{prefix}/views/rename',
  ]);
});
