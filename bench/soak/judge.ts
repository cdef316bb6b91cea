/**
 * Every request of the soak, sent and judged as a client would (as test/interop/upstream-faults.test.ts
 * does, generalised): a success; an ErrorModel (valid against the spec's IcebergErrorResponse, its
 * code the status); a response broken off after its head (`cut`: how a cut stream is told); an
 * error that is not an ErrorModel; or no answer at all. Raw paths go out as given (undici), so
 * the hostile corpus' `..` and `%2e` segments reach Icefront unnormalised.
 *
 * Behind the pair's balancer (pair.ts) an answer may be nginx's own rather than Icefront's
 * (`balancer`: a 5xx that is not JSON, given when the replica it had sent the request to died), and
 * every answer names the replicas nginx tried (`via`, its X-Upstream-Addr), so that a failure can
 * be laid at the killed replica's door or not.
 *
 * What can only be judged once the fault schedule is known (is this 5xx inside a fault? did the
 * errors stop after its end?) is kept per request: every answer that was not a success, and a
 * per-second count of all answers.
 */
import { Agent, type Dispatcher } from 'undici';
import { openApiAvailable, validateAgainst } from '../../test/helpers/openapi.js';
import { errorModelProblem } from '../../test/http/hostile/tally.js';

export type Outcome = 'success' | 'error-model' | 'cut' | 'bad-error' | 'balancer' | 'no-answer';

/** Requests of these kinds addressed the `rest` catalog, whose upstream the faults hit. */
export interface Sent {
  readonly kind: string;
  readonly catalog: string;
  readonly start: number;
  readonly end: number;
  readonly status: number;
  readonly outcome: Outcome;
  /** The replicas the balancer tried, as it names them (`127.0.0.1:port[, …]`); absent without a balancer or an answer. */
  readonly via?: string;
  readonly note?: string;
}

export interface Answer {
  readonly status: number;
  readonly outcome: Outcome;
  readonly text: string;
  readonly etag?: string | undefined;
}

/** Icefront's deadline for any request of the bench (the `rest` catalog's request timeout plus a turn in its queue, both bounded by it); a hang is an answer later than this plus 1 s. */
export const DEADLINE_MS = 5000;
const ABORT_MS = 20_000;

/** undici refused to write the request (the hostile corpus has header values no client can send). */
export class NotSent extends Error {}

export class Judge {
  readonly dispatcher: Dispatcher = new Agent({ connections: 64, keepAliveTimeout: 10_000, pipelining: 1, headersTimeout: ABORT_MS, bodyTimeout: ABORT_MS });
  readonly notSuccess: Sent[] = [];
  readonly byOutcome = new Map<Outcome, number>();
  readonly byStatus = new Map<number, number>();
  readonly byKind = new Map<string, number>();
  readonly perSecond = new Map<number, number>();
  /** Answers (or no answers) later than DEADLINE_MS + 1 s. */
  readonly late: Sent[] = [];
  slowestMs = 0;
  slowest = '';
  total = 0;
  private readonly spec = openApiAvailable();

  constructor(readonly base: string) {}

  /** One request (to `origin`, else the base); `headers` may carry an Authorization. The caller never sees an exception but NotSent. */
  async send(kind: string, catalog: string, method: string, path: string, opts: { headers?: Record<string, string>; body?: string | Buffer; origin?: string } = {}): Promise<Answer> {
    const start = Date.now();
    const t0 = performance.now();
    let res: Dispatcher.ResponseData;
    try {
      // the dispatcher's own request: the path goes out byte for byte (undici's request(url) would normalise it)
      res = await this.dispatcher.request({
        origin: opts.origin ?? this.base,
        path,
        method: method as Dispatcher.HttpMethod,
        headers: opts.headers ?? {},
        ...(opts.body !== undefined && { body: opts.body }),
        signal: AbortSignal.timeout(ABORT_MS),
      });
    } catch (err) {
      // a request undici refuses to write (a header value it deems invalid) was never sent
      if ((err as { code?: string }).code === 'UND_ERR_INVALID_ARG' || (err as Error).name === 'InvalidArgumentError' || err instanceof TypeError) throw new NotSent((err as Error).message);
      return this.record({ kind, catalog, start, end: Date.now(), status: 0, outcome: 'no-answer', note: `${(err as Error).name}: ${(err as Error).message}` }, t0, '');
    }
    const via = res.headers['x-upstream-addr'];
    const seen = { kind, catalog, start, status: res.statusCode, ...(typeof via === 'string' && { via }) };
    let text: string;
    try {
      text = await res.body.text();
    } catch (err) {
      return this.record({ ...seen, end: Date.now(), outcome: 'cut', note: (err as Error).message }, t0, '');
    }
    const status = res.statusCode;
    if (status < 400) {
      const etag = res.headers['etag'];
      return this.record({ ...seen, end: Date.now(), outcome: 'success' }, t0, text, typeof etag === 'string' ? etag : undefined);
    }
    // nginx's own error page (HTML): no replica answered this request
    if (status >= 500 && seen.via !== undefined && !/json/.test(String(res.headers['content-type'] ?? ''))) return this.record({ ...seen, end: Date.now(), outcome: 'balancer', note: text.slice(0, 80) }, t0, text);
    const problem = method === 'HEAD' ? undefined : this.errorModelProblem(status, text);
    // a 5xx's own message, for the goals' detail
    const note = problem ?? (status >= 500 ? messageOf(text) : undefined);
    return this.record({ ...seen, end: Date.now(), outcome: problem ? 'bad-error' : 'error-model', ...(note && { note }) }, t0, text);
  }

  private errorModelProblem(status: number, text: string): string | undefined {
    const basic = errorModelProblem(status, text);
    if (basic || !this.spec) return basic;
    const errors = validateAgainst('IcebergErrorResponse', JSON.parse(text));
    return errors.length ? `not an IcebergErrorResponse: ${errors.slice(0, 2).join('; ')}: ${text.slice(0, 120)}` : undefined;
  }

  private record(sent: Sent, t0: number, text: string, etag?: string): Answer {
    const ms = performance.now() - t0;
    this.total++;
    this.byOutcome.set(sent.outcome, (this.byOutcome.get(sent.outcome) ?? 0) + 1);
    this.byStatus.set(sent.status, (this.byStatus.get(sent.status) ?? 0) + 1);
    this.byKind.set(sent.kind, (this.byKind.get(sent.kind) ?? 0) + 1);
    const second = Math.floor(sent.start / 1000);
    this.perSecond.set(second, (this.perSecond.get(second) ?? 0) + 1);
    if (sent.outcome !== 'success') this.notSuccess.push(sent);
    if (ms > DEADLINE_MS + 1000) this.late.push({ ...sent, note: `${ms.toFixed(0)} ms${sent.note ? `; ${sent.note}` : ''}` });
    if (ms > this.slowestMs) {
      this.slowestMs = ms;
      this.slowest = `${sent.kind} on ${sent.catalog || '-'} → ${sent.status || sent.outcome}`;
    }
    return { status: sent.status, outcome: sent.outcome, text, etag };
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

/** An ErrorModel's type and message, shortened; undefined for anything else. */
function messageOf(text: string): string | undefined {
  try {
    const e = (JSON.parse(text) as { error?: { type?: unknown; message?: unknown } }).error;
    return typeof e?.message === 'string' ? `${String(e.type)}: ${e.message.slice(0, 200)}` : undefined;
  } catch {
    return undefined;
  }
}
