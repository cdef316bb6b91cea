/** Shared checks for HTTP tests (not a test file). */
import type { Test } from 'tap';
import { validateAgainst } from '../helpers/openapi.js';

export interface ResponseLike {
  readonly statusCode: number;
  readonly headers: Record<string, unknown>;
  readonly body: string;
}

/** The response is an IcebergErrorResponse with this status and type, code matching the status. */
export function assertError(t: Test, res: ResponseLike, status: number, type: string, what = ''): void {
  const label = what ? `${what}: ` : '';
  t.equal(res.statusCode, status, `${label}status ${status}`);
  t.match(String(res.headers['content-type']), /^application\/json/, `${label}JSON content-type`);
  let body: { error?: { type?: string; code?: number } } = {};
  try {
    body = JSON.parse(res.body) as typeof body;
  } catch {
    t.fail(`${label}body is not JSON: ${res.body.slice(0, 100)}`);
    return;
  }
  t.same(validateAgainst('IcebergErrorResponse', body), [], `${label}valid IcebergErrorResponse`);
  t.equal(body.error?.type, type, `${label}type ${type}`);
  t.equal(body.error?.code, res.statusCode, `${label}code matches the status line`);
}

/** Parses a JSON body and checks it against the OpenAPI schema it claims. */
export function assertBody<T = unknown>(t: Test, res: ResponseLike, schema: string, what = ''): T {
  t.equal(res.statusCode, 200, `${what} 200`);
  t.match(String(res.headers['content-type']), /^application\/json/, `${what} JSON content-type`);
  const body = JSON.parse(res.body) as T;
  t.same(validateAgainst(schema, body), [], `${what} valid ${schema}`);
  return body;
}
