/**
 * The sections of the status page, each from a read-only snapshot (observability/activity.ts,
 * Service.describeCatalogs): catalogs, caches, work in flight, requests per route, recent plans,
 * recent upstream errors. Every value goes through `html` (escaped).
 */
import type { ActivitySnapshot, CacheSnapshot, PlanRecord, RouteSeries, UpstreamContact } from '../../observability/index.js';
import { MINUTES } from '../../observability/index.js';
import type { CatalogStatus } from '../../service/index.js';
import { barChart } from './charts.js';
import { age, bytes, clock, count, ms, percent } from './format.js';
import { html, type Html } from './html.js';

export function catalogsSection(catalogs: readonly CatalogStatus[], snapshot: ActivitySnapshot): Html {
  const rows = catalogs.map((c) => {
    const contact = snapshot.upstreams.get(c.name);
    return html`<tr id="catalog-${c.name}">
<td class="name">${c.name}</td><td>${c.type}</td><td class="mono">${c.location ?? '—'}</td>
<td>${c.planning ?? 'undecided'}</td><td class="why">${c.planningReason}</td>
${c.type === 'rest' ? health(contact, snapshot.now) : html`<td class="muted">none: ${/^s3[an]?:\/\//.test(c.location ?? '') ? 'its files on S3' : 'its files on local disk'}</td><td>—</td><td>—</td>`}
<td class="num">${c.type === 'rest' ? `${c.upstreamInFlight ?? 0} / ${c.upstreamQueued ?? 0}` : '—'}</td></tr>`;
  });
  return html`<section id="catalogs"><h2>Catalogs</h2>
<table><thead><tr><th>Catalog</th><th>Type</th><th>Location</th><th>Planning</th><th>Why</th><th>Upstream</th><th>Last contact</th><th>Latency</th><th title="upstream requests in flight / waiting for a turn">In flight / queued</th></tr></thead>
<tbody>${rows.length > 0 ? rows : html`<tr><td colspan="9" class="muted">No catalogs configured.</td></tr>`}</tbody></table></section>`;
}

function health(contact: UpstreamContact | undefined, now: number): Html {
  if (!contact) return html`<td class="muted">no contact yet</td><td>—</td><td>—</td>`;
  const state = contact.healthy ? html`<span class="ok">answering</span>` : html`<span class="bad">failing</span>`;
  const what = contact.status === undefined ? 'no answer' : `status ${contact.status}`;
  return html`<td>${state} <span class="muted">(${what})</span></td><td>${age(contact.at, now)} <span class="muted mono">${contact.what}</span></td><td class="num">${ms(contact.ms)}</td>`;
}

export function cachesSection(caches: readonly CacheSnapshot[]): Html {
  const rows = caches.map((c) => {
    const gets = c.hits + c.misses + c.coalesced;
    const use = c.budget ? html`<meter min="0" max="${c.budget}" value="${c.bytes}"></meter> ${percent(c.bytes, c.budget)}` : '—';
    return html`<tr><td class="name">${c.name}</td><td class="num">${bytes(c.bytes)}</td><td class="num">${bytes(c.budget)}</td><td>${use}</td>
<td class="num">${percent(c.hits + c.coalesced, gets)}</td><td class="num">${count(c.hits)}</td><td class="num">${count(c.misses)}</td><td class="num">${count(c.coalesced)}</td><td class="num">${count(c.evictions)}</td><td class="num">${count(c.inFlight)}</td></tr>`;
  });
  return html`<section id="caches"><h2>Caches</h2>
<table><thead><tr><th>Cache</th><th>Used</th><th>Budget</th><th>Use</th><th title="served from storage or by joining a computation in flight">Hit rate</th><th>Hits</th><th>Misses</th><th>Coalesced</th><th>Evictions</th><th>Computing</th></tr></thead>
<tbody>${rows.length > 0 ? rows : html`<tr><td colspan="10" class="muted">No cache has reported yet.</td></tr>`}</tbody></table>
<p class="note">Planning caches live in the planning worker threads (when <code>planning.workers</code> is above 0) and report after each job; totals since start.</p></section>`;
}

export function inFlightSection(snapshot: ActivitySnapshot, catalogs: readonly CatalogStatus[]): Html {
  const computing = snapshot.caches.reduce((n, c) => n + c.inFlight, 0);
  const upstream = catalogs.reduce((n, c) => n + (c.upstreamInFlight ?? 0), 0);
  const queued = catalogs.reduce((n, c) => n + (c.upstreamQueued ?? 0), 0);
  return html`<section id="in-flight"><h2>Work in flight</h2><dl class="figures">
<div><dt>HTTP requests</dt><dd>${count(snapshot.requestsInFlight)}</dd><dd class="muted">this page included</dd></div>
<div><dt>Cache computations</dt><dd>${count(computing)}</dd><dd class="muted">manifests, lists, delete indexes, upstream plans</dd></div>
<div><dt>Upstream requests</dt><dd>${count(upstream)}</dd><dd class="muted">${count(queued)} waiting for a turn</dd></div>
</dl></section>`;
}

export function requestsSection(routes: readonly RouteSeries[]): Html {
  const rows = routes.map((r) => {
    const total = r.minutes.reduce((n, m) => n + m.count, 0);
    const refused = r.minutes.reduce((n, m) => n + m.clientErrors, 0);
    const errors = r.minutes.reduce((n, m) => n + m.errors, 0);
    const totalMs = r.minutes.reduce((n, m) => n + m.meanMs * m.count, 0);
    const maxMs = Math.max(...r.minutes.map((m) => m.maxMs));
    const first = r.minutes[0];
    const last = r.minutes[r.minutes.length - 1];
    const span = { from: first ? clock(first.at).slice(0, 5) : '', to: last ? clock(last.at).slice(0, 5) : '' };
    const rate = barChart(
      r.minutes.map((m) => ({
        value: m.count,
        refused: m.clientErrors,
        errors: m.errors,
        title: `${clock(m.at)}: ${m.count} requests, ${m.clientErrors} refused (4xx), ${m.errors} failed (5xx)`,
      })),
      `${r.method} ${r.route}: requests per minute`,
      { ...span, top: (max) => `${count(max)}/min` },
    );
    const latency = barChart(
      r.minutes.map((m) => ({ value: m.meanMs, title: `${clock(m.at)}: mean ${ms(m.meanMs)}, max ${ms(m.maxMs)}` })),
      `${r.method} ${r.route}: mean latency per minute`,
      { ...span, top: (max) => ms(max) },
    );
    return html`<tr><td class="mono">${r.method}</td><td class="mono route">${r.route}</td><td class="num">${count(total)}</td><td class="num">${count(refused)}</td><td class="num">${count(errors)}</td>
<td class="num">${ms(total === 0 ? undefined : totalMs / total)}</td><td class="num">${ms(maxMs)}</td><td>${rate}</td><td>${latency}</td></tr>`;
  });
  return html`<section id="requests"><h2>Requests, last ${MINUTES} minutes</h2>
<table><thead><tr><th>Method</th><th>Route</th><th>Requests</th><th title="answered 400–499: bad input, no permission, not found, throttled">Refused (4xx)</th><th title="answered 500 and above">Failed (5xx)</th><th>Mean</th><th>Max</th><th title="blue: answered, orange: refused, red: failed; times in UTC">Requests per minute</th><th title="times in UTC">Mean latency per minute</th></tr></thead>
<tbody>${rows.length > 0 ? rows : html`<tr><td colspan="9" class="muted">No requests yet.</td></tr>`}</tbody></table></section>`;
}

export function plansSection(plans: readonly PlanRecord[], limit: number): Html {
  const rows = plans.map(
    (p) => html`<tr class="plan"><td><time datetime="${new Date(p.at).toISOString()}">${clock(p.at)}</time></td><td class="name">${p.catalog}</td>
<td class="mono table">${[...p.namespace, p.table].join('.')}</td><td class="mono">${p.snapshotId ?? '—'}</td>
<td class="num">${pair(p.manifestsRead, p.manifestsSkipped)}</td><td class="num">${pair(p.filesKept, p.filesPruned)}</td><td class="num">${count(p.deletesAttached)}</td>
<td class="num">${count(p.tasks)}${p.planTasks ? html` <span class="muted">(${p.planTasks} plan tasks)</span>` : ''}</td><td class="num">${bytes(p.responseBytes)}</td>
<td class="num">${ms(p.durationMs)}</td><td>${p.principal ?? html`<span class="muted">—</span>`}</td><td>${p.plannedBy ?? '—'}</td><td class="${p.status >= 400 ? 'bad' : 'ok'}">${p.status}</td>
<td class="why">${p.reason ?? ''}</td></tr>`,
  );
  return html`<section id="plans"><h2>Recent plans <span class="muted">(last ${limit})</span></h2>
<table><thead><tr><th>Time (UTC)</th><th>Catalog</th><th>Table</th><th>Snapshot</th><th title="manifests read / skipped">Manifests</th><th title="data files kept / pruned">Files</th><th>Deletes</th><th>Tasks</th><th>Response</th><th>Duration</th><th>Who</th><th>Planner</th><th>Status</th><th>Why refused</th></tr></thead>
<tbody>${rows.length > 0 ? rows : html`<tr><td colspan="14" class="muted">No plans yet.</td></tr>`}</tbody></table></section>`;
}

function pair(a: number | undefined, b: number | undefined): string {
  return a === undefined && b === undefined ? '—' : `${count(a)} / ${count(b)}`;
}

export function upstreamErrorsSection(snapshot: ActivitySnapshot): Html {
  const rows = snapshot.upstreamErrors.map(
    (e) => html`<tr><td><time datetime="${new Date(e.at).toISOString()}">${clock(e.at)}</time> <span class="muted">${age(e.at, snapshot.now)}</span></td><td class="name">${e.catalog}</td>
<td class="mono">${e.what}</td><td>${e.status ?? e.code ?? '—'}</td><td>${e.message}</td></tr>`,
  );
  return html`<section id="upstream-errors"><h2>Recent upstream errors</h2>
<table><thead><tr><th>Time (UTC)</th><th>Catalog</th><th>Request</th><th>Status or code</th><th>Message</th></tr></thead>
<tbody>${rows.length > 0 ? rows : html`<tr><td colspan="5" class="muted">None.</td></tr>`}</tbody></table></section>`;
}
