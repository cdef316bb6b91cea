/**
 * Plan ids (GET/DELETE …/plan/{plan-id}, wire-format.md §3, §5.1): the plan itself, so that any
 * replica can answer a poll by re-planning the pinned scan, with no state shared or kept.
 *
 * Text: `p1.<payload>[.<mac>]` (envelope.ts), only `[A-Za-z0-9._-]`, so the id survives Java's
 * form-style path encoding (`RESTUtil.encodeString`) and `decodeURIComponent` alike. JSON:
 * exactly the plan fields of plan-ref.ts. The kind differs from plan tasks', and the MAC covers
 * it, so a plan id is never accepted as a plan task nor the reverse.
 */
import { fail } from '../errors/index.js';
import { stringifyJson } from '../json/index.js';
import { open, seal } from './envelope.js';
import { refFromJson, refObject, refToJson, type PlanRef } from './plan-ref.js';
import { parsePayload, readOrUndefined } from './strict-json.js';

/** Envelope kind of format 1 plan ids. */
const KIND = 'p1';

/**
 * Longest plan id accepted (and issued). The id travels in the request line, which Node's HTTP
 * parser bounds together with the headers (16 KiB by default), so half of that is left for it.
 */
export const PLAN_ID_MAX_LENGTH = 8 * 1024;

/**
 * The plan id for a plan, signed when `key` is given. The same plan always gives the same id.
 * Throws INVALID_SCAN when the id would exceed PLAN_ID_MAX_LENGTH (a very long filter); a plan
 * that completes in its first response needs no pollable id.
 */
export function encodePlanId(plan: PlanRef, key?: Buffer): string {
  const text = seal(KIND, stringifyJson(refToJson(plan)), key);
  if (text.length > PLAN_ID_MAX_LENGTH)
    throw fail('INVALID_SCAN', `The scan is too large to carry in a plan id (${text.length} characters, limit ${PLAN_ID_MAX_LENGTH})`);
  return text;
}

/**
 * The plan `text` stands for, or undefined for anything this server would not have issued. The
 * caller must still check `planTaskMatches` against the route; GET answers undefined with
 * 404 NoSuchPlanIdException, DELETE answers 204 whatever the id (wire-format.md §5.4).
 */
export function decodePlanId(text: string, key?: Buffer): PlanRef | undefined {
  const json = open(KIND, text, key, PLAN_ID_MAX_LENGTH);
  if (json === undefined) return undefined;
  return readOrUndefined(() => refFromJson(refObject(parsePayload(json))));
}
