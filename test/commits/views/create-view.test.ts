import t from 'tap';
import { newViewMetadata, parseCreateViewRequest } from '../../../src/commits/views/index.js';
import { currentViewSchema, currentViewVersion, parseViewMetadata, viewMetadataToJson } from '../../../src/iceberg/index.js';
import { parseJson, stringifyJson } from '../../../src/json/index.js';
import { CREATE_VIEW_REQUEST } from '../../iceberg/view-samples.js';
import { NOW, fixedClock } from '../../helpers/views.js';
import { OPENAPI_SKIP, openApiAvailable, validateAgainst } from '../../helpers/openapi.js';

const request = (over: Record<string, unknown> = {}) => parseCreateViewRequest({ ...structuredClone(CREATE_VIEW_REQUEST), ...over });
const withVersion = (over: Record<string, unknown>) => request({ 'view-version': { ...CREATE_VIEW_REQUEST['view-version'], ...over } });

t.test('a CreateViewRequest is read', async (t) => {
  const req = request();
  t.equal(req.name, 'event_counts');
  t.notOk('location' in req);
  t.equal(req.schema.schemaId, 7);
  t.same(req.schema.fields.map((f) => f.name), ['day', 'events']);
  t.equal(req.viewVersion.defaultCatalog, 'prod');
  t.same(req.viewVersion.representations, [{ kind: 'sql', sql: 'SELECT day, count(*) events FROM events GROUP BY day', dialect: 'spark' }]);
  t.same(req.properties, { comment: 'counts per day' });
  t.equal(request({ location: 's3://b/v' }).location, 's3://b/v');
});

t.test('properties and location may be absent or null (Java reads them only when present)', async (t) => {
  const { properties: _p, ...rest } = CREATE_VIEW_REQUEST;
  t.same(parseCreateViewRequest(rest).properties, {});
  t.same(request({ properties: null, location: null }).properties, {});
  t.notOk('location' in request({ location: null }));
});

t.test('a malformed CreateViewRequest is BAD_REQUEST naming the field', async (t) => {
  const cases: Array<[unknown, RegExp]> = [
    [[], /'\(body\)'/],
    [{ ...CREATE_VIEW_REQUEST, name: undefined }, /'name'/],
    [{ ...CREATE_VIEW_REQUEST, name: 3 }, /'name'/],
    [{ ...CREATE_VIEW_REQUEST, location: 3 }, /'location'/],
    [{ ...CREATE_VIEW_REQUEST, schema: undefined }, /'schema'/],
    [{ ...CREATE_VIEW_REQUEST, schema: { type: 'struct', fields: 'x' } }, /'schema\.fields'/],
    [{ ...CREATE_VIEW_REQUEST, 'view-version': undefined }, /'view-version'/],
    [{ ...CREATE_VIEW_REQUEST, 'view-version': { ...CREATE_VIEW_REQUEST['view-version'], summary: undefined } }, /'view-version\.summary'/],
    [{ ...CREATE_VIEW_REQUEST, 'view-version': { ...CREATE_VIEW_REQUEST['view-version'], representations: [{ type: 'other' }] } }, /'view-version\.representations\[0\]\.type'/],
    [{ ...CREATE_VIEW_REQUEST, properties: { a: true } }, /'properties\.a'/],
  ];
  for (const [body, message] of cases) t.throws(() => parseCreateViewRequest(body), { code: 'BAD_REQUEST', message }, String(message));
});

t.test('a new view: version 1 now, schema id 0, a fresh UUID, the version log started', async (t) => {
  const clock = fixedClock();
  const meta = newViewMetadata(request(), 's3://warehouse/analytics/event_counts', clock);
  t.equal(meta.viewUuid, 'uuid-1');
  t.equal(meta.formatVersion, 1);
  t.equal(meta.location, 's3://warehouse/analytics/event_counts', 'the default location when the request names none');
  t.same(meta.properties, { comment: 'counts per day' });
  t.equal(meta.currentVersionId, 1);
  t.same(meta.schemas.map((s) => s.schemaId), [0], "the request's schema-id 7 is not kept");
  t.same(currentViewSchema(meta).fields.map((f) => [f.id, f.name]), [
    [1, 'day'],
    [2, 'events'],
  ], 'field ids are kept');
  const v = currentViewVersion(meta);
  t.same(v, {
    versionId: 1,
    timestampMs: NOW,
    schemaId: 0,
    summary: { 'engine-name': 'spark', 'engine-version': '3.5.1' },
    representations: [{ kind: 'sql', sql: 'SELECT day, count(*) events FROM events GROUP BY day', dialect: 'spark' }],
    defaultCatalog: 'prod',
    defaultNamespace: ['analytics'],
  });
  t.same(meta.versionLog, [{ timestampMs: NOW, versionId: 1 }]);
  t.same(meta.extra, {});
});

t.test("the request's location wins over the default", async (t) => {
  t.equal(newViewMetadata(request({ location: 's3://b/mine' }), 's3://b/default', fixedClock()).location, 's3://b/mine');
});

t.test('version id and schema id sent with the version are replaced', async (t) => {
  const meta = newViewMetadata(withVersion({ 'version-id': 9, 'schema-id': -1 }), 's3://b/v', fixedClock());
  t.equal(meta.currentVersionId, 1);
  t.equal(currentViewVersion(meta).schemaId, 0);
});

t.test('catalog default properties yield to the request, override properties do not', async (t) => {
  const meta = newViewMetadata(request({ properties: { comment: 'mine', a: '1' } }), 's3://b/v', fixedClock(), {
    defaultProperties: { comment: 'default', b: '2' },
    overrideProperties: { a: 'forced' },
  });
  t.same(meta.properties, { comment: 'mine', b: '2', a: 'forced' });
});

t.test('a view without a query is ILLEGAL_ARGUMENT', async (t) => {
  t.throws(() => newViewMetadata(withVersion({ representations: [] }), 's3://b/v', fixedClock()), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('two queries for one dialect are ILLEGAL_ARGUMENT', async (t) => {
  const req = withVersion({
    representations: [
      { type: 'sql', sql: 'SELECT 1', dialect: 'trino' },
      { type: 'SQL', sql: 'SELECT 2', dialect: 'TRINO' },
    ],
  });
  t.throws(() => newViewMetadata(req, 's3://b/v', fixedClock()), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('a history size property that is not a positive int is ILLEGAL_ARGUMENT', async (t) => {
  t.throws(() => newViewMetadata(request({ properties: { 'version.history.num-entries': '0' } }), 's3://b/v', fixedClock()), { code: 'ILLEGAL_ARGUMENT' });
});

t.test('the new view writes, reads back and serves as a LoadViewResult', { skip: openApiAvailable() ? false : OPENAPI_SKIP }, async (t) => {
  t.same(validateAgainst('CreateViewRequest', CREATE_VIEW_REQUEST), [], 'the sample request is a spec CreateViewRequest');
  const meta = newViewMetadata(request(), 's3://b/v', fixedClock());
  const json = viewMetadataToJson(meta);
  const text = stringifyJson(json);
  t.equal(stringifyJson(viewMetadataToJson(parseViewMetadata(parseJson(text)))), text);
  t.same(validateAgainst('LoadViewResult', { 'metadata-location': 's3://b/v/metadata/00000-x.metadata.json', metadata: json }), []);
});
