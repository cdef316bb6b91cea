import t from 'tap';
import { parseSqlUri, redactUri } from '../../../src/catalogs/sql/sql-uri.js';
import { isIcefrontError } from '../../../src/errors/index.js';

function code(uri: string): string | undefined {
  try {
    parseSqlUri(uri);
    return undefined;
  } catch (err) {
    return isIcefrontError(err) ? err.code : String(err);
  }
}

t.test('sqlite uris: absolute paths however many slashes, or memory', async (t) => {
  for (const uri of ['sqlite:/var/lib/icefront/catalog.db', 'sqlite:///var/lib/icefront/catalog.db', 'sqlite:////var/lib/icefront/catalog.db']) {
    t.same(parseSqlUri(uri), { dialect: 'sqlite', path: '/var/lib/icefront/catalog.db', display: 'sqlite:/var/lib/icefront/catalog.db' }, uri);
  }
  t.same(parseSqlUri('sqlite::memory:'), { dialect: 'sqlite', path: ':memory:', display: 'sqlite::memory:' });
  t.equal(code('sqlite:catalog.db'), 'CONFIG_INVALID', 'a relative path');
  t.equal(code('sqlite:/db?mode=ro'), 'CONFIG_INVALID', 'parameters');
  t.equal(code('sqlite:///'), 'CONFIG_INVALID', 'no file');
});

t.test('postgresql uris keep the connection string for pg and show no password', async (t) => {
  const target = parseSqlUri('postgres://ana:s%40cret@db.internal:6543/lake?sslmode=require');
  t.equal(target.dialect, 'postgresql');
  if (target.dialect !== 'postgresql') return;
  t.equal(target.connectionString, 'postgresql://ana:s%40cret@db.internal:6543/lake?sslmode=require');
  t.equal(target.display, 'postgresql://ana@db.internal:6543/lake');
  t.same([...target.secrets].sort(), ['s%40cret', 's@cret']);
  const psycopg = parseSqlUri('postgresql+psycopg2://ana@localhost/lake');
  t.equal(psycopg.dialect === 'postgresql' && psycopg.connectionString, 'postgresql://ana@localhost/lake', "SQLAlchemy's driver part is dropped");
  const socket = parseSqlUri('postgresql:///lake?host=/run/postgresql&password=pw');
  t.equal(socket.display, 'postgresql:///run/postgresql/lake', 'a socket directory is shown as the host');
  t.same(socket.dialect === 'postgresql' && socket.secrets, ['pw']);
});

t.test('other schemes and empty uris are configuration errors', async (t) => {
  t.equal(code('mysql://u:p@h/db'), 'CONFIG_INVALID');
  t.equal(code('jdbc:postgresql://h/db'), 'CONFIG_INVALID');
  t.equal(code(''), 'CONFIG_INVALID');
  t.equal(code('postgresql://u:p@[broken/db'), 'CONFIG_INVALID');
});

t.test('redaction hides user-info and query-string passwords, even in uris that do not parse', async (t) => {
  t.equal(redactUri('postgresql://ana:s3cret@h:5432/db'), 'postgresql://ana:***@h:5432/db');
  t.equal(redactUri('postgresql://:s3cret@h/db'), 'postgresql://:***@h/db');
  t.equal(redactUri('postgresql://ana@h/db?sslmode=require&password=s3cret&x=1'), 'postgresql://ana@h/db?sslmode=require&password=***&x=1');
  t.equal(redactUri('postgresql://ana@h/db?sslpassword=k3y'), 'postgresql://ana@h/db?sslpassword=***');
  t.equal(redactUri('postgresql://ana:s3cret@[broken/db'), 'postgresql://ana:***@[broken/db');
  t.equal(redactUri('postgresql://h/db'), 'postgresql://h/db', 'nothing to hide');
  t.equal(code('mysql://u:topsecret@h/db'), 'CONFIG_INVALID');
  try {
    parseSqlUri('mysql://u:topsecret@h/db');
  } catch (err) {
    t.notMatch((err as Error).message, 'topsecret');
  }
});
