/**
 * The database a `sql` catalog names: `postgresql://` / `postgres://` (pyiceberg's SQLAlchemy
 * `postgresql+psycopg2://` too: its driver part is dropped) or `sqlite:` with an absolute path.
 * Nothing built here carries a password: messages use `display` or `redactUri`.
 */
import { fail } from '../../errors/index.js';

export type SqlTarget =
  | { readonly dialect: 'sqlite'; readonly path: string; readonly display: string }
  | {
      readonly dialect: 'postgresql';
      /** For pg only: may hold a password. */
      readonly connectionString: string;
      readonly display: string;
      /** Every secret the URI holds, to scrub from driver messages. */
      readonly secrets: readonly string[];
    };

const POSTGRES = /^postgres(?:ql)?(?:\+[a-z0-9_]+)?:\/\//i;
const SQLITE = /^sqlite:/i;

/** The URI with its password (user-info or `password=` parameters) replaced by `***`. */
export function redactUri(uri: string): string {
  return uri.replace(/(\/\/[^/?#@:]*):[^/?#@]*@/, '$1:***@').replace(/([?&](?:ssl)?password=)[^&#]*/gi, '$1***');
}

export function parseSqlUri(uri: string): SqlTarget {
  if (typeof uri !== 'string' || uri === '') throw fail('CONFIG_INVALID', 'A sql catalog needs a uri');
  if (SQLITE.test(uri)) return sqliteTarget(uri);
  if (POSTGRES.test(uri)) return postgresTarget(uri);
  throw fail('CONFIG_INVALID', `Unsupported sql catalog uri ${redactUri(uri)}: expected postgresql://… or sqlite:/absolute/path.db`);
}

// SQLAlchemy writes an absolute path as `sqlite:////abs`, the brief's form is `sqlite:///abs`: leading slashes collapse to one.
function sqliteTarget(uri: string): SqlTarget {
  const rest = uri.slice('sqlite:'.length);
  if (rest === ':memory:') return { dialect: 'sqlite', path: ':memory:', display: 'sqlite::memory:' };
  if (!rest.startsWith('/') || rest.includes('?') || rest.includes('\0'))
    throw fail('CONFIG_INVALID', `A sqlite catalog uri names an absolute file (sqlite:/abs/path.db or sqlite:///abs/path.db), got ${redactUri(uri)}`);
  const path = rest.replace(/^\/+/, '/');
  if (path === '/') throw fail('CONFIG_INVALID', `A sqlite catalog uri names a file, got ${redactUri(uri)}`);
  return { dialect: 'sqlite', path, display: `sqlite:${path}` };
}

function postgresTarget(uri: string): SqlTarget {
  const connectionString = uri.replace(POSTGRES, 'postgresql://');
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch (cause) {
    throw fail('CONFIG_INVALID', `Invalid postgresql uri ${redactUri(uri)}`, cause instanceof Error ? new Error(redactUri(cause.message)) : undefined);
  }
  const secrets = new Set<string>();
  for (const raw of [url.password, url.searchParams.get('password') ?? '', url.searchParams.get('sslpassword') ?? '']) {
    if (raw === '') continue;
    secrets.add(raw);
    secrets.add(safeDecode(raw));
  }
  const user = safeDecode(url.username);
  const host = url.searchParams.get('host') ?? (safeDecode(url.hostname) || 'localhost');
  const database = safeDecode(url.pathname.replace(/^\//, '')) || user || 'postgres';
  const display = `postgresql://${user === '' ? '' : `${user}@`}${host}${url.port === '' ? '' : `:${url.port}`}/${database}`;
  return { dialect: 'postgresql', connectionString, display, secrets: [...secrets].filter((s) => s.length > 0) };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
