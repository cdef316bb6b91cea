/** Outcome bookkeeping for the hostile-input corpus and the fuzz runs (not a test file). */

export interface Outcome {
  readonly label: string;
  /** HTTP status, or a class such as `reset` (the connection was closed without an answer). */
  readonly outcome: string;
  readonly ms: number;
}

export class Tally {
  readonly byOutcome = new Map<string, number>();
  slowest: Outcome = { label: '(none)', outcome: '', ms: 0 };
  count = 0;
  private readonly started = performance.now();

  add(o: Outcome): void {
    this.count++;
    this.byOutcome.set(o.outcome, (this.byOutcome.get(o.outcome) ?? 0) + 1);
    if (o.ms > this.slowest.ms) this.slowest = o;
  }

  merge(other: Tally): void {
    this.count += other.count;
    for (const [k, v] of other.byOutcome) this.byOutcome.set(k, (this.byOutcome.get(k) ?? 0) + v);
    if (other.slowest.ms > this.slowest.ms) this.slowest = other.slowest;
  }

  /** One line: inputs, outcomes by class, the slowest answer, peak RSS, wall time. */
  summary(what: string): string {
    const classes = [...this.byOutcome].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}×${v}`).join(' ');
    const rssMiB = (process.resourceUsage().maxRSS / 1024).toFixed(0);
    const wall = ((performance.now() - this.started) / 1000).toFixed(1);
    return `${what}: ${this.count} inputs; outcomes ${classes}; slowest ${this.slowest.ms.toFixed(0)} ms (${this.slowest.label.slice(0, 120)} → ${this.slowest.outcome}); peak RSS ${rssMiB} MiB; wall ${wall} s`;
  }
}

/** An Iceberg ErrorModel envelope whose code is the HTTP status, or a reason it is not one. */
export function errorModelProblem(status: number, body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `not JSON: ${body.slice(0, 80)}`;
  }
  const e = (parsed as { error?: { message?: unknown; type?: unknown; code?: unknown } } | null)?.error;
  if (!e || typeof e.message !== 'string' || typeof e.type !== 'string' || typeof e.code !== 'number') return `not an ErrorModel: ${body.slice(0, 80)}`;
  if (e.code !== status) return `code ${e.code} differs from status ${status}`;
  return undefined;
}
