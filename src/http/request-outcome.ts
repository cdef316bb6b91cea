/**
 * What a request's answer held, noted where the service or a route learns it (a plan's counts and
 * snapshot, a loaded table's snapshot), for the status page and the audit line written when the
 * response is sent (request-record.ts). Kept beside the request, as access-line.ts keeps its fields.
 */
import type { IncomingMessage } from 'node:http';
import type { ScanOutcome } from '../service/index.js';
import { requestSlot } from './request-slot.js';

export type RequestOutcome = Partial<ScanOutcome>;

const outcomes = requestSlot<RequestOutcome>('icefront.outcome');

export function noteOutcome(request: IncomingMessage, outcome: RequestOutcome): void {
  outcomes.set(request, outcome);
}

export function outcomeOf(request: IncomingMessage): RequestOutcome | undefined {
  return outcomes.get(request);
}
