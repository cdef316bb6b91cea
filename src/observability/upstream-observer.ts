/**
 * The one observer of upstream exchanges: every answer or fault of an upstream call, whether
 * Icefront's own (catalogs/rest) or a streamed pass-through (http/upstream-routes), is counted in
 * `/metrics` by catalog and outcome and recorded for the status page.
 */
import type { UpstreamObserver } from './activity.js';
import type { Metrics } from './metrics.js';

/** What observes upstream calls: `/metrics`, the status page's record, both or neither. */
export function upstreamObserver(metrics: Pick<Metrics, 'observeUpstreamCall'> | undefined, record: UpstreamObserver | undefined): UpstreamObserver | undefined {
  if (!metrics && !record) return undefined;
  return {
    answered: (catalog, what, ms, status) => {
      metrics?.observeUpstreamCall(catalog, status, ms / 1000);
      record?.answered(catalog, what, ms, status);
    },
    failed: (catalog, what, ms, code, message) => {
      metrics?.observeUpstreamCall(catalog, code, ms / 1000);
      record?.failed(catalog, what, ms, code, message);
    },
  };
}
