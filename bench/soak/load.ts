/**
 * The load generator, in-process (undici through Judge): the requests engines send, on every
 * catalog, and the ones they should not.
 *
 * - readers: config, namespace and table listings, load-table with If-None-Match (the ETag of the
 *   last 200), HEAD, and /plan (filtered and not) followed by every /tasks it hands out, on the
 *   pyiceberg-written tables of `up`, `fs` and `pg` and on the demo warehouse;
 * - the forbidden principal (`reader`): reads of `pg` and a write on `up`, each must be a 403;
 * - the hostile corpus (test/http/hostile/inputs.ts: paths, bodies, headers) against the
 *   read-only `demo` catalog, in a loop; beside it its raw framings (smuggling, duplicate lengths,
 *   CR/LF), each on a socket of its own;
 * - commit writers (commits.ts): appends and schema changes on each catalog kind.
 */
import { hostileBodies, hostileHeaders, hostilePaths, RAW_FRAMINGS, type HostileRequest } from '../../test/http/hostile/inputs.js';
import { rawExchange, readRawAnswer } from '../../test/http/hostile/raw-exchange.js';
import { SynthTable, type AppendRecord, type SchemaRecord } from './commits.js';
import type { Judge } from './judge.js';

export const CATALOGS = ['up', 'fs', 'pg'] as const;
export type CatalogName = (typeof CATALOGS)[number];
export const NAMESPACE = 'soak';

export interface Principals {
  readonly writer: Record<string, string>;
  readonly reader: Record<string, string>;
}

/** The tables in use now: a new generation every few minutes keeps each table's metadata bounded. */
export interface Generation {
  readonly id: number;
  synth(catalog: CatalogName): string;
  rows(catalog: CatalogName): string;
}

export function generation(id: number): Generation {
  return { id, synth: () => `synth_${id}`, rows: () => `rows_${id}` };
}

export interface LoadTally {
  readonly appends: AppendRecord[];
  readonly schemas: SchemaRecord[];
  /** Forbidden requests answered other than 403 (a success is a violation; a 5xx too). */
  readonly forbiddenWrong: string[];
  forbidden: number;
  /** Hostile inputs answered a success they may not have, or a 5xx. */
  readonly hostileWrong: string[];
  hostile: number;
  hostileNotSent: number;
  /** Raw framings sent (their wrong answers are among `hostileWrong`). */
  raw: number;
  /** Successes whose body a client could not read (commits.ts). */
  readonly malformed: string[];
  plans: number;
  tasks: number;
  notModified: number;
}

export function newTally(): LoadTally {
  return { appends: [], schemas: [], forbiddenWrong: [], forbidden: 0, hostileWrong: [], hostile: 0, hostileNotSent: 0, raw: 0, malformed: [], plans: 0, tasks: 0, notModified: 0 };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const json = { 'content-type': 'application/json' };

export interface LoadContext {
  readonly judge: Judge;
  readonly principals: Principals;
  readonly tally: LoadTally;
  /** A replica's own URL, not the balancer's: where the hostile corpus goes (nginx would refuse much of it itself, in HTML). */
  readonly replica: string;
  /** The generation whose tables exist now (undefined before the first). */
  current(): Generation;
  running(): boolean;
}

/** One reader: a mix of reads, in turn, on the catalogs and the demo warehouse. */
export async function reader(ctx: LoadContext, id: number, gapMs: number): Promise<void> {
  const etags = new Map<string, string>();
  const { judge } = ctx;
  const w = ctx.principals.writer;
  for (let i = 0; ctx.running(); i++) {
    const catalog = CATALOGS[(i + id) % CATALOGS.length]!;
    const g = ctx.current();
    const ns = `/v1/${catalog}/namespaces/${NAMESPACE}`;
    const tables = [g.rows(catalog), g.synth(catalog)];
    // the reader principal may read up and fs: half the reads there are its own
    const who = catalog !== 'pg' && i % 2 === 0 ? ctx.principals.reader : w;
    switch (i % 7) {
      case 0:
        await judge.send('config', catalog, 'GET', `/v1/config?warehouse=${catalog}`, { headers: who });
        break;
      case 1:
        await judge.send('list-namespaces', catalog, 'GET', `/v1/${catalog}/namespaces`, { headers: who });
        await judge.send('list-tables', catalog, 'GET', `${ns}/tables`, { headers: who });
        break;
      case 2:
      case 3: {
        const table = tables[i % 2]!;
        const key = `${catalog}/${table}`;
        const etag = etags.get(key);
        const a = await judge.send('load-table', catalog, 'GET', `${ns}/tables/${table}`, { headers: { ...who, ...(etag && { 'if-none-match': etag }) } });
        if (a.status === 200 && a.etag) etags.set(key, a.etag);
        if (a.status === 304) ctx.tally.notModified++;
        break;
      }
      case 4:
        await judge.send('head-table', catalog, 'HEAD', `${ns}/tables/${g.rows(catalog)}`, { headers: who });
        break;
      default: {
        // /plan, filtered and not, and every /tasks it hands out
        const filter = i % 2 === 0 ? { filter: { type: 'gt-eq', term: 'batch', value: (i * 7) % 50 } } : {};
        await plan(ctx, catalog, `${ns}/tables/${g.rows(catalog)}`, filter, who);
        if (i % 3 === 0) await plan(ctx, 'demo', '/v1/demo/namespaces/sales/tables/orders', i % 2 ? { filter: { type: 'eq', term: 'region', value: 'EU' } } : {}, w);
      }
    }
    await pause(gapMs);
  }
}

async function plan(ctx: LoadContext, catalog: string, table: string, body: object, headers: Record<string, string>): Promise<void> {
  const a = await ctx.judge.send('plan', catalog, 'POST', `${table}/plan`, { headers: { ...headers, ...json }, body: JSON.stringify(body) });
  if (a.status !== 200 || a.outcome !== 'success') return;
  ctx.tally.plans++;
  const tasks = (JSON.parse(a.text) as { 'plan-tasks'?: string[] })['plan-tasks'] ?? [];
  for (const task of tasks) {
    await ctx.judge.send('tasks', catalog, 'POST', `${table}/tasks`, { headers: { ...headers, ...json }, body: JSON.stringify({ 'plan-task': task }) });
    ctx.tally.tasks++;
  }
}

/** The principal who may not: reads of `pg` and writes anywhere are 403s, every one. */
export async function forbidden(ctx: LoadContext): Promise<void> {
  const r = ctx.principals.reader;
  for (let i = 0; ctx.running(); i++) {
    const g = ctx.current();
    const tries: [string, string, string, string?][] = [
      ['GET', 'pg', `/v1/pg/namespaces/${NAMESPACE}/tables/${g.rows('pg')}`],
      ['GET', 'pg', `/v1/pg/namespaces/${NAMESPACE}/tables`],
      ['POST', 'pg', `/v1/pg/namespaces/${NAMESPACE}/tables/${g.rows('pg')}/plan`, '{}'],
      ['GET', 'pg', '/v1/config?warehouse=pg'],
      ['POST', 'up', `/v1/up/namespaces/${NAMESPACE}/tables/${g.synth('up')}`, JSON.stringify({ requirements: [], updates: [{ action: 'set-properties', updates: { forbidden: 'x' } }] })],
      ['POST', 'fs', `/v1/fs/namespaces`, JSON.stringify({ namespace: [`forbidden_${i}`], properties: {} })],
      ['GET', '', '/metrics'],
    ];
    const [method, catalog, path, body] = tries[i % tries.length]!;
    const a = await ctx.judge.send('forbidden', catalog, method, path, { headers: { ...r, ...(body !== undefined && json) }, ...(body !== undefined && { body }) });
    ctx.tally.forbidden++;
    // nginx's own 502 (the replica it chose was killed) is no answer of Icefront's: goals.ts judges it by the fault schedule
    if (a.status !== 403 && a.outcome !== 'balancer' && ctx.tally.forbiddenWrong.length < 50) ctx.tally.forbiddenWrong.push(`${method} ${path} → ${a.status || a.outcome}`);
    await pause(100);
  }
}

/** The hostile corpus, again and again, one input at a time, against `demo` (a catalog Icefront keeps), on a replica directly. */
export async function hostile(ctx: LoadContext): Promise<void> {
  const corpus: HostileRequest[] = [...hostilePaths(), ...hostileBodies(), ...hostileHeaders()];
  for (let i = 0; ctx.running(); i++) {
    const input = corpus[i % corpus.length]!;
    // with auth on, each input carries the writer's token unless it brings an Authorization of its own
    const headers = { ...ctx.principals.writer, ...input.headers };
    let a;
    try {
      a = await ctx.judge.send('hostile', 'demo', input.method, input.url, { headers, origin: ctx.replica, ...(input.payload !== undefined && { body: input.payload }) });
    } catch {
      ctx.tally.hostileNotSent++; // undici would not write it (NotSent)
      continue;
    }
    ctx.tally.hostile++;
    // a success is right only for an input valid in disguise, and never for a credential that is not one
    const success = a.status > 0 && a.status < 400;
    const badCredential = input.headers?.['authorization'] !== undefined;
    if ((a.status >= 500 || (success && (!input.mayPass || badCredential))) && ctx.tally.hostileWrong.length < 50) ctx.tally.hostileWrong.push(`${input.label.slice(0, 100)} → ${a.status}`);
    await pause(40);
  }
}

/** A raw framing is answered within this, or (a lenient one) left unanswered: a hang otherwise. */
const RAW_ANSWER_MS = 5000;

/**
 * The corpus' raw framings, one at a time on a socket of their own, on a replica directly (nginx
 * would answer many itself): at most one answer each (nothing smuggled), never a 5xx, a 4xx
 * ErrorModel for each one Node's parser must refuse, within RAW_ANSWER_MS. The writer's token
 * rides after the Host line, so a framing is judged by the parser and the routes, not by auth.
 */
export async function rawFramings(ctx: LoadContext): Promise<void> {
  const { hostname, port } = new URL(ctx.replica);
  const token = ctx.principals.writer['authorization'];
  for (let i = 0; ctx.running(); i++) {
    const { label, bytes, lenient } = RAW_FRAMINGS[i % RAW_FRAMINGS.length]!;
    const signed = token === undefined ? bytes : bytes.replace('\r\nHost: x\r\n', `\r\nHost: x\r\nAuthorization: ${token}\r\n`);
    const { answer } = await rawExchange(Number(port), signed, RAW_ANSWER_MS, hostname);
    ctx.tally.raw++;
    const wrong = rawVerdict(readRawAnswer(answer), lenient);
    if (wrong !== undefined && ctx.tally.hostileWrong.length < 50) ctx.tally.hostileWrong.push(`raw framing ${label} → ${wrong}`);
    await pause(500);
  }
}

/** What is wrong with the answer to a raw framing, if anything. */
function rawVerdict({ answers, status, problem }: ReturnType<typeof readRawAnswer>, lenient: boolean): string | undefined {
  if (answers > 1) return `${answers} answers (something smuggled)`;
  if (status !== undefined && status >= 500) return `${status}`;
  if (!lenient && (status === undefined || status < 400)) return `${status ?? `no answer within ${RAW_ANSWER_MS} ms`}, not a 4xx`;
  if (problem !== undefined) return `${status}: ${problem}`;
  return undefined;
}

/** Appends on one catalog's synthetic table, built on the last answer; after anything but a 200, reload. */
export async function appender(ctx: LoadContext, catalog: CatalogName, gapMs: number): Promise<void> {
  let table: SynthTable | undefined;
  let state: Awaited<ReturnType<SynthTable['load']>>;
  while (ctx.running()) {
    const g = ctx.current();
    if (!table || table.table !== g.synth(catalog)) {
      table = new SynthTable(ctx.judge, catalog, NAMESPACE, g.synth(catalog), ctx.principals.writer, ctx.tally.malformed);
      state = undefined;
    }
    state ??= await table.load();
    if (!state) {
      await pause(200);
      continue;
    }
    const { record, next } = await table.append(state);
    ctx.tally.appends.push(record);
    state = next;
    await pause(gapMs);
  }
}

/** Schema changes on one catalog's synthetic table: a new column each time. */
export async function schemaChanger(ctx: LoadContext, catalog: CatalogName, gapMs: number): Promise<void> {
  let table: SynthTable | undefined;
  let n = 0;
  while (ctx.running()) {
    const g = ctx.current();
    if (!table || table.table !== g.synth(catalog)) table = new SynthTable(ctx.judge, catalog, NAMESPACE, g.synth(catalog), ctx.principals.writer, ctx.tally.malformed);
    const state = await table.load();
    if (state) {
      const { record } = await table.addColumn(state, `c${n++}`);
      ctx.tally.schemas.push(record);
    }
    await pause(gapMs);
  }
}
