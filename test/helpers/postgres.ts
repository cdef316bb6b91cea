/**
 * A throwaway PostgreSQL cluster per test file, from Debian's `postgresql` package
 * (/usr/lib/postgresql/<major>/bin, the highest major installed): initdb into a temp dir, started
 * on a free port of 127.0.0.1 (and a unix socket in the temp dir), trust auth, one database.
 * initdb refuses to run as root, so as root the cluster runs as the `postgres` system user.
 */
import { spawnSync } from 'node:child_process';
import { chown, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';
import { runCommand } from './run-command.js';

const ROOT = '/usr/lib/postgresql';
/** The superuser (trust) and a role that must give its password (scram-sha-256), for failure tests. */
export const SUPERUSER = 'icefront';
export const PASSWORD_ROLE = 'icefront_pw';
export const PASSWORD = 'right-horse-battery';

/** The bin folder of the highest installed major, or undefined. */
export function postgresBinDir(): string | undefined {
  if (!existsSync(ROOT)) return undefined;
  const majors = readdirSync(ROOT)
    .filter((d) => /^\d+$/.test(d) && existsSync(path.join(ROOT, d, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors.length === 0 ? undefined : path.join(ROOT, majors[0]!, 'bin');
}

/** Why postgres tests skip, or undefined when they can run. */
export function postgresMissing(): string | undefined {
  if (postgresBinDir() !== undefined) return undefined;
  return `PostgreSQL server binaries not found under ${ROOT}/<major>/bin: install the Debian package \`postgresql\` (apt-get install postgresql)`;
}

export interface PostgresCluster {
  readonly port: number;
  readonly database: string;
  /** Milliseconds from initdb to a connectable database. */
  readonly startMs: number;
  /** `postgresql://icefront@127.0.0.1:<port>/<database>` (the superuser, trust). */
  uri(database?: string): string;
  /** A new empty database; its URI. */
  createDatabase(): Promise<string>;
  /** One statement on `uri` (default: the cluster's database), as the superuser. */
  query(sql: string, params?: readonly unknown[], uri?: string): Promise<Record<string, unknown>[]>;
  stop(): Promise<void>;
}

function asOwner(): { cmd: (bin: string) => [string, string[]]; root: boolean } {
  const root = process.getuid?.() === 0;
  return { root, cmd: (bin) => (root ? ['runuser', ['-u', 'postgres', '--', bin]] : [bin, []]) };
}

async function run(bin: string, args: readonly string[], cwd: string): Promise<void> {
  const [cmd, prefix] = asOwner().cmd(bin);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG')));
  const result = await runCommand(cmd, [...prefix, ...args], { cwd, env, timeoutMs: 120_000 });
  if (result.code !== 0) throw new Error(`${path.basename(bin)} failed (${result.code}): ${result.stderr || result.stdout}`);
}

async function chownTree(dir: string): Promise<void> {
  const uid = Number(spawnSync('id', ['-u', 'postgres']).stdout.toString().trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres']).stdout.toString().trim());
  await chown(dir, uid, gid);
  for (const entry of await readdir(dir, { recursive: true })) await chown(path.join(dir, entry), uid, gid);
}

/**
 * `durable`: PostgreSQL's own defaults (fsync, full page writes, synchronous commit on), as a
 * deployment runs it; benches measuring commits use it. Tests run without them, for speed: a
 * test's cluster is thrown away, so nothing needs to survive a crash of the machine.
 */
export async function startPostgres(options: { readonly durable?: boolean } = {}): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (bin === undefined) throw new Error(postgresMissing());
  const began = Date.now();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'icefront-pg-'));
  const data = path.join(dir, 'data');
  const { root } = asOwner();
  if (root) await chownTree(dir);
  await run(path.join(bin, 'initdb'), ['-D', data, '-U', SUPERUSER, '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'], dir);
  await writeFile(
    path.join(data, 'pg_hba.conf'),
    ['local all all trust', `host all ${PASSWORD_ROLE} 127.0.0.1/32 scram-sha-256`, 'host all all 127.0.0.1/32 trust', ''].join('\n'),
  );
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    const speed = options.durable ? '' : ' -c fsync=off -c full_page_writes=off -c synchronous_commit=off';
    const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${speed}`;
    try {
      await run(path.join(bin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', '-o', settings, 'start'], dir);
      break;
    } catch (err) {
      if (attempt >= 3) throw err; // the port was taken between freePort and the start
    }
  }
  let stopped = false;
  const stopNow = () => {
    if (stopped) return;
    stopped = true;
    const [cmd, prefix] = asOwner().cmd(path.join(bin, 'pg_ctl'));
    spawnSync(cmd, [...prefix, '-D', data, 'stop', '-m', 'immediate'], { cwd: dir, stdio: 'ignore' });
  };
  process.once('exit', stopNow); // a crashed test file leaves no server behind
  const uri = (database = 'icefront') => `postgresql://${SUPERUSER}@127.0.0.1:${port}/${database}`;
  const query = async (sql: string, params: readonly unknown[] = [], target = uri()) => {
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    try {
      return (await client.query(sql, params as unknown[])).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };
  await query('CREATE DATABASE icefront', [], uri('postgres'));
  await query(`CREATE ROLE ${PASSWORD_ROLE} LOGIN PASSWORD '${PASSWORD}'`, [], uri('postgres'));
  let databases = 0;
  return {
    port,
    database: 'icefront',
    startMs: Date.now() - began,
    uri,
    query,
    async createDatabase() {
      const name = `db_${++databases}`;
      await query(`CREATE DATABASE ${name}`, [], uri('postgres'));
      return uri(name);
    },
    async stop() {
      stopNow();
      process.removeListener('exit', stopNow);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
