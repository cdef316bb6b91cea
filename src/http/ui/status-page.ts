/**
 * The status page, `GET /`: plain server-rendered HTML from read-only snapshots (the instance's
 * Activity and the service's catalog descriptions), never reaching into caches or catalogs.
 * Its one stylesheet and one small script are inline and allowed by their SHA-256 in the
 * content-security-policy, which allows nothing else (CSP Level 3 §2.3.1 hash-source): no other
 * script, style, frame, form target or connection. Who may see it: anyone when authentication is
 * off; with it on, only principals with one of `auth.admin-roles` (http/access.ts), since it
 * lists catalogs, tables and principals.
 */
import { createHash } from 'node:crypto';
import type { Activity } from '../../observability/index.js';
import { RECENT_PLANS } from '../../observability/index.js';
import type { Service } from '../../service/index.js';
import type { RouteHandler } from '../catalog-routes.js';
import { clock, duration } from './format.js';
import { Html, html } from './html.js';
import { cachesSection, catalogsSection, inFlightSection, plansSection, requestsSection, upstreamErrorsSection } from './status-sections.js';

export interface StatusPageOptions {
  readonly service: Pick<Service, 'describeCatalogs'>;
  readonly activity: Activity;
  /** Whether authentication is on (the page says who may see it). */
  readonly authenticated: boolean;
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1d2430; --muted: #6a7383; --line: #d8dde6; --bar: #3f7fd9; --err: #d9453f; --warn: #d98a1f; --ok: #23884a; --bg: #fff; --head: #f3f5f9; }
@media (prefers-color-scheme: dark) { :root { --fg: #e4e8ef; --muted: #99a1ae; --line: #3a4150; --bar: #6aa1f0; --err: #f07268; --warn: #f0a850; --ok: #56c17d; --bg: #161a21; --head: #1f242d; } }
body { font: 14px/1.4 system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 1.5rem; }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 1.5rem; border-bottom: 1px solid var(--line); margin-bottom: 1rem; }
h1 { font-size: 1.4rem; margin: 0 0 .5rem; } h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: middle; }
th { background: var(--head); font-weight: 600; white-space: nowrap; }
td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.mono { font-family: ui-monospace, monospace; font-size: 12px; } .route { word-break: break-all; }
.muted { color: var(--muted); } .ok { color: var(--ok); } .bad { color: var(--err); font-weight: 600; }
.why { max-width: 22rem; } .note { color: var(--muted); font-size: 12px; }
.figures { display: flex; gap: 2.5rem; margin: 0; } .figures dt { color: var(--muted); } .figures dd { margin: 0; } .figures dd:nth-of-type(1) { font-size: 1.6rem; }
svg.chart { display: block; } .slot { fill: var(--head); } .bar { fill: var(--bar); } .bar-error { fill: var(--err); } .bar-refused { fill: var(--warn); }
.axis { font-size: 7px; fill: var(--muted); } .axis-line { stroke: var(--line); stroke-width: .5; }
meter { width: 6rem; vertical-align: middle; }
label { color: var(--muted); }
`;

const SCRIPT = `
const box = document.getElementById('auto-refresh');
box.checked = location.hash === '#refresh';
box.addEventListener('change', () => { history.replaceState(null, '', box.checked ? '#refresh' : location.pathname); });
setInterval(() => { if (box.checked) location.reload(); }, 10000);
`;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** CSP Level 3: nothing but this page's own stylesheet and script (by hash), and the empty data: icon. */
export const STATUS_PAGE_CSP = [
  "default-src 'none'",
  `style-src ${hash(STYLE)}`,
  `script-src ${hash(SCRIPT)}`,
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function statusPageRoute(options: StatusPageOptions): RouteHandler {
  return async (ctx) =>
    ctx.reply
      .code(200)
      .header('content-security-policy', STATUS_PAGE_CSP)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(renderStatusPage(options).text);
}

/** The whole page; its own constant stylesheet and script are embedded verbatim (their hashes are in the CSP). */
export function renderStatusPage(options: StatusPageOptions): Html {
  const snapshot = options.activity.snapshot();
  const catalogs = options.service.describeCatalogs();
  const who = options.authenticated ? 'authentication on: shown to auth.admin-roles only' : 'authentication off: shown to anyone who reaches Icefront';
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Icefront status</title><link rel="icon" href="data:,"><style>${new Html(STYLE)}</style></head>
<body><header><h1>Icefront status</h1>
<span>at <time datetime="${new Date(snapshot.now).toISOString()}">${clock(snapshot.now)} UTC</time></span>
<span class="muted">up ${duration(snapshot.startedAt, snapshot.now)}</span><span class="muted">${who}</span>
<label><input type="checkbox" id="auto-refresh"> refresh every 10 s</label></header>
<main>
${catalogsSection(catalogs, snapshot)}
${inFlightSection(snapshot, catalogs)}
${cachesSection(snapshot.caches)}
${requestsSection(snapshot.routes)}
${plansSection(snapshot.plans, RECENT_PLANS)}
${upstreamErrorsSection(snapshot)}
</main>
<script>${new Html(SCRIPT)}</script></body></html>
`;
}
