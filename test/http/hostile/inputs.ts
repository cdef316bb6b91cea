/**
 * The hostile-input corpus, generated from compact tables (not a test file): request paths,
 * bodies, plan-task strings and raw HTTP framings. Each input says whether a success could be
 * a correct answer (`mayPass`); otherwise only a 4xx ErrorModel is.
 */

export interface HostileRequest {
  readonly label: string;
  readonly method: 'GET' | 'HEAD' | 'POST' | 'DELETE' | 'PUT';
  readonly url: string;
  readonly headers?: Record<string, string>;
  readonly payload?: string | Buffer;
  /** A success is a correct answer to this input (a valid input in disguise). */
  readonly mayPass?: boolean;
}

export const TABLE = '/v1/demo/namespaces/sales/tables/orders';

/** Path segments an attacker tries: traversal raw and encoded, double and overlong encodings, NUL, separators. */
export const HOSTILE_SEGMENTS: readonly string[] = [
  '..', '.', '%2e%2e', '%2E%2E', '%2e.', '.%2e', '%2e', '%252e%252e', '%252E', '%c0%ae%c0%ae', '%c0%ae', '%e0%80%ae',
  '%00', 'a%00b', '%5c..%5c', '..%5c..', '..\\..', '%', '%zz', '%e2%82', '%ff', '%c3', '%ed%a0%80',
  '%1F', 'sales%1F', '%1Fsales', 'sales%1F%1Forders', 'sales%1f..', '%2E', 'sales%2Eorders', '+', '%2B', '%2F', '%2F..%2F', 'a%2Fb',
  ';', '..;', '%u002e%u002e', '~', '*', '%20', '%09', 'x'.repeat(20000), `${'%41'.repeat(6000)}`, '\u00e9', encodeURIComponent('名前'),
];

/** Where a segment goes, with the methods its route defines (and one it does not). */
const PATH_SLOTS: readonly { readonly at: (s: string) => string; readonly methods: readonly HostileRequest['method'][] }[] = [
  { at: (s) => `/v1/demo/namespaces/${s}`, methods: ['GET', 'DELETE'] },
  { at: (s) => `/v1/demo/namespaces/${s}/tables`, methods: ['GET'] },
  { at: (s) => `/v1/demo/namespaces/sales/tables/${s}`, methods: ['GET', 'HEAD'] },
  { at: (s) => `/v1/${s}/namespaces`, methods: ['GET'] },
  { at: (s) => `${TABLE}/plan/${s}`, methods: ['GET', 'DELETE'] },
  { at: (s) => `/v1/demo/namespaces/${s}/tables/orders/plan`, methods: ['POST'] },
];

export function hostilePaths(): HostileRequest[] {
  const out: HostileRequest[] = [];
  for (const slot of PATH_SLOTS)
    for (const seg of HOSTILE_SEGMENTS)
      for (const method of slot.methods)
        out.push({
          label: `${method} ${slot.at(seg.length > 60 ? `<${seg.length} chars>` : seg)}`,
          method,
          url: slot.at(seg),
          ...(method === 'POST' && { headers: { 'content-type': 'application/json' }, payload: '{}' }),
          // REST spec cancelPlanning: cancelling a plan that is not running is a no-op (204)
          ...(method === 'DELETE' && slot.at('x').includes('/plan/') && { mayPass: true }),
        });
  // whole-URL oddities
  for (const url of ['/v1/demo/namespaces/sales/../../../etc/passwd', '/v1/demo//namespaces', '//v1/config', '/v1/config/..', '/v1/%2e%2e/config', '/v1/demo/namespaces/sales/tables/orders?snapshots=%00', '/v1/demo/namespaces?parent=%1F%1F', '/v1/demo/namespaces?parent=..', '/v1/demo/namespaces?pageSize=-1', '/v1/demo/namespaces?pageSize=99999999999999999999', '/v1/demo/namespaces?pageToken=%ff', '/v1/demo/namespaces?pageToken=a&pageToken=b', '/v1/config?warehouse=..%2F..', '/v1/config?warehouse=a&warehouse=b', `/v1/demo/namespaces?parent=${'a%1F'.repeat(3000)}`, 'http://evil.example/v1/config', '/v1/demo/namespaces/sales/tables/orders#frag'])
    // a huge pageSize is an upper bound the server lowers (REST spec parameters.page-size): a page
    out.push({ label: `GET ${url.slice(0, 80)}`, method: 'GET', url, mayPass: /\?parent=\.\.$|\?pageSize=-1|pageSize=9{20}|parent=%1F%1F|#frag|^http:|\/\/v1\/config|warehouse=\.\.|parent=a%1F/.test(url) });
  return out;
}

/** Values of the wrong type (and int64 edges) for every field of the plan, tasks and commit bodies. */
const LEAF = '{"type":"eq","term":"order_id","value":1}';
const WRONG_VALUES: readonly string[] = [
  'null', 'true', '0', '-1', '1.5', '"x"', '[]', '{}', '[1]', '"9223372036854775807"', '9223372036854775807', '9223372036854775808',
  '-9223372036854775809', '1e308', '-0', '1e-400', `"${'z'.repeat(70000)}"`, '"\\u0000"', '"\\ud800"',
];
const PLAN_FIELDS = ['snapshot-id', 'select', 'filter', 'case-sensitive', 'use-snapshot-schema', 'start-snapshot-id', 'end-snapshot-id', 'stats-fields', 'min-rows-requested'];
const COMMIT_FIELDS = ['requirements', 'updates', 'identifier'];

/** Malformed JSON, deep nesting, huge arrays, non-UTF-8 bytes. */
const MALFORMED: readonly (string | Buffer)[] = [
  '', '{', '[', '}', '{"a":}', 'nul', '{"filter":', '"', '{}}', '{"a":1,}', 'NaN', '1e999999', '\ufeff{}', '{"a":1}{"b":2}',
  "{'filter':1}", '{"filter":{"type":"eq","term":"order_id","value":1}', '\u0000', '{"\\x":1}', '{"a":"\\u12"}', '[1,2,3]', '"just a string"', '42',
  `${'['.repeat(100000)}${']'.repeat(100000)}`, `${'{"a":'.repeat(50000)}1${'}'.repeat(50000)}`,
  nested(5000), nested(1050), nested(999), andChain(3000), JSON.stringify({ select: Array.from({ length: 100000 }, (_, i) => `c${i}`) }),
  JSON.stringify({ filter: { type: 'in', term: 'order_id', values: Array.from({ length: 60000 }, (_, i) => i) } }),
  JSON.stringify({ filter: { type: 'in', term: 'order_id', values: Array.from({ length: 20000 }, (_, i) => i) } }),
  JSON.stringify({ 'stats-fields': Array.from({ length: 50000 }, () => 'order_id') }),
  Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), Buffer.from([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x3a, 0x31, 0x7d]),
  Buffer.concat([Buffer.from('{"filter":{"type":"eq","term":"sku","value":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}}')]),
  Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
];



/** `{"filter": not(not(…(leaf)))}` as text (JSON.stringify itself overflows on deep values). */
function nested(depth: number): string {
  return `{"filter":${'{"type":"not","child":'.repeat(depth)}${LEAF}${'}'.repeat(depth)}}`;
}

function andChain(depth: number): string {
  return `{"filter":${'{"type":"and","left":'.repeat(depth)}${LEAF}${',"right":{"type":"true"}}'.repeat(depth)}}`;
}

const CONTENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'application/json; charset=latin1', 'application/json, text/plain', 'application/xml', ''];

export function hostileBodies(): HostileRequest[] {
  const out: HostileRequest[] = [];
  const json = { 'content-type': 'application/json' };
  for (const field of PLAN_FIELDS)
    for (const v of WRONG_VALUES)
      out.push({ label: `plan ${field}=${v.slice(0, 30)}`, method: 'POST', url: `${TABLE}/plan`, headers: json, payload: `{"${field}":${v}}`,
        // a boolean flag given a boolean, or -0/1e-400 (zero) for a count, is a valid request
        mayPass: v === 'null' || (/case-sensitive|use-snapshot-schema/.test(field) && v === 'true') || (field === 'filter' && v === 'true') || (field === 'select' && v === '[]') || (field === 'stats-fields' && v === '[]') || field === 'min-rows-requested' });
  for (const v of WRONG_VALUES) out.push({ label: `tasks plan-task=${v.slice(0, 30)}`, method: 'POST', url: `${TABLE}/tasks`, headers: json, payload: `{"plan-task":${v}}` });
  for (const field of COMMIT_FIELDS)
    for (const v of WRONG_VALUES.slice(0, 9)) {
      out.push({ label: `commit ${field}=${v}`, method: 'POST', url: TABLE, headers: json, payload: `{"${field}":${v}}` });
      out.push({ label: `transaction ${field}=${v}`, method: 'POST', url: '/v1/demo/transactions/commit', headers: json, payload: `{"table-changes":[{"${field}":${v}}]}` });
    }
  for (const body of MALFORMED)
    for (const url of [`${TABLE}/plan`, `${TABLE}/tasks`]) {
      const text = typeof body === 'string' ? body : `<${body.length} bytes>`;
      out.push({ label: `${url.endsWith('plan') ? 'plan' : 'tasks'} body ${text.slice(0, 40)}${text.length > 40 ? `…(${text.length})` : ''}`, method: 'POST', url, headers: json, payload: body,
        mayPass: url.endsWith('plan') && (typeof body !== 'string' || body.startsWith('\ufeff') || body.startsWith('{"stats-fields"') || body === nested(999) || body === JSON.stringify({ filter: { type: 'in', term: 'order_id', values: Array.from({ length: 20000 }, (_, i) => i) } })) });
    }
  for (const type of CONTENT_TYPES)
    for (const url of [`${TABLE}/plan`, `${TABLE}/tasks`, '/v1/oauth/tokens'])
      out.push({ label: `${url.split('/').at(-1)} as ${type || '(no type)'}`, method: 'POST', url, headers: type ? { 'content-type': type } : {}, payload: '{}',
        mayPass: url.endsWith('plan') && /^application\/json(;|$)/.test(type) });
  return out;
}

/** Headers fastify inject can carry: oversized, odd tokens, odd conditional and delegation values. */
export function hostileHeaders(): HostileRequest[] {
  const values: Record<string, readonly string[]> = {
    authorization: ['Bearer', 'Bearer ', `Bearer ${'a'.repeat(12000)}`, 'Basic Og==', 'Bearer \u00ff', 'Bearer a b c', 'Negotiate x', 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.'],
    'if-none-match': ['*', 'W/"x"', '"', `"${'a'.repeat(12000)}"`, '"a", "b", ""'],
    'x-iceberg-access-delegation': ['vended-credentials', 'remote-signing', 'x'.repeat(5000), ',,,'],
    'x-request-id': ['../../x', 'a'.repeat(5000), '%00'],
    host: ['evil.example:666', '', '[::1]:99999'],
    'x-forwarded-host': ['evil.example'],
  };
  const out: HostileRequest[] = [];
  for (const [name, list] of Object.entries(values))
    for (const v of list)
      for (const url of [TABLE, '/v1/demo/namespaces'])
        out.push({ label: `${name}: ${v.slice(0, 40)} on ${url}`, method: 'GET', url, headers: { [name]: v }, mayPass: true });
  return out;
}

/**
 * Framings Node's parser accepts, honestly (`lenient`: any answer but a 5xx or two answers will
 * do): a final `chunked` after `identity` (RFC 9112 §6.1), HTTP/0.9 and 2.0 version lines answered
 * as 1.1, 2,000 short headers (under the 16 KB bound), and an absolute-form target (RFC 9112
 * §3.2.2). CONNECT is closed unanswered; an Expect: 100-continue without its body waits for the
 * body. A repeated Host is refused (Icefront checks it: RFC 9112 §3.2; Node does not).
 */
const LENIENT = new Set(['TE identity, chunked', 'HTTP/0.9 request line', 'HTTP/2 version on HTTP/1', '2,000 headers', 'an absolute target with another host', 'CONNECT to an upstream', 'Expect: 100-continue with no body']);

/** Raw framings only a socket can send: CR/LF injection, duplicate lengths, CL+TE smuggling, bad chunks. The rest must be refused with a 4xx ErrorModel. */
export const RAW_FRAMINGS: readonly { readonly label: string; readonly bytes: string; readonly lenient: boolean }[] = [
  ['CR/LF in a header value', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\rX-B: b\r\n\r\n'],
  ['bare LF line ends', 'GET /healthz HTTP/1.1\nHost: x\nX-A: a\n\n'],
  ['NUL in a header value', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n'],
  ['obs-fold continuation', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\r\n  folded\r\n\r\n'],
  ['space before the colon', 'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length : 5\r\n\r\nhello'],
  ['two Content-Length values', `POST ${TABLE}/plan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 40\r\n\r\n{}`],
  ['a Content-Length list', `POST ${TABLE}/plan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2, 40\r\n\r\n{}`],
  ['CL.TE smuggling', `POST ${TABLE}/plan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 40\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /v1/config HTTP/1.1\r\nHost: x\r\n\r\n`],
  ['TE.CL smuggling', `POST ${TABLE}/plan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n2\r\n{}\r\n0\r\n\r\n`],
  ['TE chunked twice', `POST ${TABLE}/plan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`],
  ['TE obfuscated (xchunked)', `POST ${TABLE}/plan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: xchunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`],
  ['TE with a tab', `POST ${TABLE}/plan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding:\tchunked\r\nContent-Length: 3\r\n\r\n2\r\n{}\r\n0\r\n\r\n`],
  ['TE identity, chunked', `POST ${TABLE}/plan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: identity, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`],
  ['a chunk size that is not hex', `POST ${TABLE}/plan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`],
  ['a huge chunk size', `POST ${TABLE}/plan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n{}\r\n0\r\n\r\n`],
  ['a negative Content-Length', `POST ${TABLE}/plan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: -2\r\n\r\n{}`],
  ['HTTP/0.9 request line', 'GET /healthz\r\n\r\n'],
  ['HTTP/2 version on HTTP/1', 'GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n'],
  ['a space in the target', 'GET /v1/demo/namespaces/a b HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['a 20 KB header', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`],
  ['2,000 headers', `GET /healthz HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 2000 }, (_, i) => `X-${i}: v`).join('\r\n')}\r\n\r\n`],
  ['a 100 KB request target', `GET /v1/demo/namespaces/${'a'.repeat(100000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
  ['a header name with a slash', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX/Y: 1\r\n\r\n'],
  ['two Host headers', 'GET /healthz HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n'],
  ['an absolute target with another host', 'GET http://evil.example/healthz HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['CONNECT to an upstream', 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n'],
  ['an unknown method', 'BREW /healthz HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['Expect: 100-continue with no body', `POST ${TABLE}/plan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n`],
].map(([label, bytes]) => ({ label: label!, bytes: bytes!, lenient: LENIENT.has(label!) }));
