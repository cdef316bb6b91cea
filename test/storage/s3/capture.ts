/** Test doubles for the `fetch` an S3 FileIO sends with: record each request, answer from a script. */
import type { CapturedRequest } from './sigv4-reference.js';

export type Answer = (req: CapturedRequest) => Response | Promise<Response>;

export interface CapturingFetch {
  readonly fetch: typeof fetch;
  readonly requests: CapturedRequest[];
}

/** A fetch that records requests (header names lower-cased) and answers with `answer`. */
export function capturingFetch(answer: Answer = () => new Response('0123456789')): CapturingFetch {
  const requests: CapturedRequest[] = [];
  const fake = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const req: CapturedRequest = { method: init?.method ?? 'GET', url: String(input), headers };
    requests.push(req);
    return answer(req);
  };
  return { fetch: fake as typeof fetch, requests };
}

/** The error an awaited promise rejects with (fails the caller's assertion when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await p;
  } catch (err) {
    return err as { code?: string; message: string };
  }
  return { code: 'no error', message: 'the promise resolved' };
}
