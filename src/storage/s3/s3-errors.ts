/**
 * S3 failures as IcefrontErrors. Messages name the location and a status or error code, never
 * an endpoint, a header or a credential.
 */
import { fail, type IcefrontError } from '../../errors/index.js';

/** What a failed request was doing, as its message says. */
export type S3Action = 'read' | 'write';

/** The largest error body read to find its `<Code>`. */
const ERROR_BODY_LIMIT = 8 * 1024;

/** An IcefrontError for a response that is not a success. */
export async function responseError(location: string, res: Response, action: S3Action = 'read'): Promise<IcefrontError> {
  const code = await errorCode(res);
  if (res.status === 404) return fail('FILE_NOT_FOUND', `File not found: ${location}`);
  if (res.status === 401 || res.status === 403) return fail('FORBIDDEN', `Access denied to ${location}`);
  return fail('STORAGE_FAILURE', `Cannot ${action} ${location} (HTTP ${res.status}${code ? ` ${code}` : ''})`);
}

/** An IcefrontError for a request that got no response: timeout, refused, reset, DNS. */
export function transportError(location: string, err: unknown, timedOutAfterMs: number | undefined, action: S3Action = 'read'): IcefrontError {
  if (timedOutAfterMs !== undefined) return fail('STORAGE_FAILURE', `Cannot ${action} ${location} (timed out after ${timedOutAfterMs} ms)`, err);
  return fail('STORAGE_FAILURE', `Cannot ${action} ${location} (${networkCode(err)})`, err);
}

/** The S3 `<Code>` of an XML error body (HEAD responses have none); the body is always released. */
async function errorCode(res: Response): Promise<string | undefined> {
  if (!res.body) return undefined;
  const reader = res.body.getReader();
  let text = '';
  try {
    const decoder = new TextDecoder();
    while (text.length < ERROR_BODY_LIMIT) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return undefined;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const code = /<Code>([A-Za-z0-9.]{1,64})<\/Code>/.exec(text)?.[1];
  return code;
}

/** `ECONNREFUSED`, `ENOTFOUND`, … from undici's `TypeError: fetch failed` and its cause chain. */
function networkCode(err: unknown): string {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)) return code;
  }
  return 'network error';
}
