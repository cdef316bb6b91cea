import t from 'tap';
import type { Catalog } from '../../src/catalogs/index.js';
import type { Namespace, TableIdentifier } from '../../src/iceberg/index.js';
import { fail, isIcefrontError } from '../../src/errors/index.js';
import { createService, MAX_PAGE_SIZE, type Service } from '../../src/service/index.js';

/** An in-memory catalog: one namespace `db` holding the given table names. */
function memoryCatalog(tables: string[]): Catalog {
  const has = (ns: Namespace) => ns.length === 1 && ns[0] === 'db';
  return {
    name: 'mem',
    type: 'filesystem',
    planning: false,
    async listNamespaces(parent) {
      if (parent.length === 0) return [['db'], ['other']];
      if (has(parent)) return tables.slice(0, 3).map((n) => ['db', `child-${n}`]);
      throw fail('NO_SUCH_NAMESPACE', 'no');
    },
    async loadNamespace(ns) {
      if (!has(ns)) throw fail('NO_SUCH_NAMESPACE', 'no');
      return {};
    },
    async listTables(ns): Promise<TableIdentifier[]> {
      if (!has(ns)) throw fail('NO_SUCH_NAMESPACE', 'no');
      return tables.map((name) => ({ namespace: ['db'], name }));
    },
    async loadTable() {
      throw fail('NO_SUCH_TABLE', 'no');
    },
  };
}

async function walk(service: Service, pageSize: string): Promise<{ names: string[]; pages: number }> {
  const names: string[] = [];
  let token: string | undefined = '';
  let pages = 0;
  while (token !== undefined) {
    const page = await service.listTables('mem', ['db'], { pageToken: token, pageSize });
    names.push(...page.identifiers.map((i) => i.name));
    token = page['next-page-token'];
    pages++;
    if (pages > 10_000) throw new Error('pagination does not terminate');
  }
  return { names, pages };
}

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (isIcefrontError(err)) return err.code;
    throw err;
  }
  return 'OK';
}

const names = Array.from({ length: 2345 }, (_, i) => `t${String(i).padStart(5, '0')}`).reverse();

t.test('walking pages of 100 visits every table exactly once, in name order, and ends without a token', async (t) => {
  const service = createService({ catalogs: new Map([['mem', memoryCatalog(names)]]) });
  const { names: seen, pages } = await walk(service, '100');
  t.same(seen, [...names].sort());
  t.equal(pages, Math.ceil(names.length / 100));
});

t.test('without pageToken and pageSize every table comes in one response with no next-page-token', async (t) => {
  const service = createService({ catalogs: new Map([['mem', memoryCatalog(names)]]) });
  const all = await service.listTables('mem', ['db'], {});
  t.equal(all.identifiers.length, names.length);
  t.notOk('next-page-token' in all);
});

t.test('an empty pageToken alone starts a paginated listing of the largest page size', async (t) => {
  const service = createService({ catalogs: new Map([['mem', memoryCatalog(names)]]) });
  const first = await service.listTables('mem', ['db'], { pageToken: '' });
  t.equal(first.identifiers.length, MAX_PAGE_SIZE);
  t.type(first['next-page-token'], 'string');
});

t.test('pageSize alone (as iceberg-js sends it) returns the first page', async (t) => {
  const service = createService({ catalogs: new Map([['mem', memoryCatalog(names)]]) });
  const first = await service.listTables('mem', ['db'], { pageSize: '7' });
  t.same(first.identifiers.map((i) => i.name), [...names].sort().slice(0, 7));
});

t.test('tokens are stable and survive tables being added or removed before them', async (t) => {
  const before = [...names];
  const service = createService({ catalogs: new Map([['mem', memoryCatalog(before)]]) });
  const a = await service.listTables('mem', ['db'], { pageSize: '10' });
  const b = await service.listTables('mem', ['db'], { pageSize: '10' });
  t.equal(a['next-page-token'], b['next-page-token'], 'same request, same token');

  const changed = before.filter((n) => n !== 't00003').concat(['a-first', 't00009a']);
  const later = createService({ catalogs: new Map([['mem', memoryCatalog(changed)]]) });
  const next = await later.listTables('mem', ['db'], { pageToken: a['next-page-token']!, pageSize: '3' });
  t.same(next.identifiers.map((i) => i.name), ['t00009a', 't00010', 't00011'], 'continues after the last name seen');
});

t.test('a page size above 1000 is lowered to 1000 (REST spec: an upper bound the server may lower), not refused', async (t) => {
  const many = Array.from({ length: 1500 }, (_, i) => `t${String(i).padStart(4, '0')}`);
  const service = createService({ catalogs: new Map([['mem', memoryCatalog(many)]]) });
  for (const pageSize of ['1001', '1000000000000', '9'.repeat(40)]) {
    const page = await service.listTables('mem', ['db'], { pageSize });
    t.equal(page.identifiers.length, 1000, `pageSize=${pageSize.slice(0, 15)}: a page of 1000`);
    t.ok(page['next-page-token'], 'and a token for the rest');
  }
});

t.test('page sizes below 1 or not plain digits are INVALID_PAGE', async (t) => {
  const service = createService({ catalogs: new Map([['mem', memoryCatalog(names)]]) });
  for (const pageSize of ['0', '-1', 'abc', '1.5', '', ' 5', '+5', '1e3', '0x10']) {
    t.equal(await code(service.listTables('mem', ['db'], { pageSize })), 'INVALID_PAGE', `pageSize=${JSON.stringify(pageSize)}`);
  }
  t.equal(await code(service.listTables('mem', ['db'], { pageSize: '1000' })), 'OK');
  t.equal(await code(service.listTables('mem', ['db'], { pageSize: '1' })), 'OK');
});

t.test('garbage page tokens, and tokens issued for another listing, are INVALID_PAGE', async (t) => {
  const service = createService({ catalogs: new Map([['mem', memoryCatalog(names)]]) });
  const garbage = ['x', '!!!', 'null', 'e30', Buffer.from('{"v":1}').toString('base64url'), 'A'.repeat(5000), '%zz', '12'];
  for (const pageToken of garbage) {
    t.equal(await code(service.listTables('mem', ['db'], { pageToken })), 'INVALID_PAGE', `token ${pageToken.slice(0, 20)}`);
  }
  const nsToken = (await service.listNamespaces('mem', [], { pageSize: '1' }))['next-page-token'];
  t.type(nsToken, 'string');
  t.equal(await code(service.listTables('mem', ['db'], { pageToken: nsToken! })), 'INVALID_PAGE', 'namespace token on a table listing');
});

t.test('namespace listings paginate too, children of the parent only', async (t) => {
  const service = createService({ catalogs: new Map([['mem', memoryCatalog(names)]]) });
  const first = await service.listNamespaces('mem', [], { pageSize: '1' });
  t.same(first.namespaces, [['db']]);
  const second = await service.listNamespaces('mem', [], { pageSize: '1', pageToken: first['next-page-token']! });
  t.same(second.namespaces, [['other']]);
  t.notOk('next-page-token' in second);
  const children = await service.listNamespaces('mem', ['db'], {});
  t.equal(children.namespaces.length, 3, 'the three children of db');
  t.ok(children.namespaces.every((ns) => ns.length === 2 && ns[0] === 'db'));
});
