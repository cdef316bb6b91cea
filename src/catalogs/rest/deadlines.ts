/**
 * Whole-exchange deadlines for upstream requests, shared by the requests that start close
 * together. An AbortController and a timer per request were ~2.5% of a pass-through's CPU
 * (issue #12 profile); here a request gets a small signal undici accepts (it listens through
 * addEventListener) and joins the current slot, and one timer per slot ends every exchange of
 * that slot still running. A slot is opened at most every `ms / 10` (at most 100 ms) and fires
 * `ms` after it opened: a deadline is never later than `ms` after its request began, and at most
 * a tenth of `ms` (100 ms) earlier.
 */
export class ExchangeSignal {
  aborted = false;
  reason: unknown = undefined;
  #listener: (() => void) | undefined;

  constructor(readonly slot: Set<ExchangeSignal>) {}

  addEventListener(_type: 'abort', listener: () => void): void {
    this.#listener = listener;
  }

  removeEventListener(): void {
    this.#listener = undefined;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.();
  }
}

export class Deadlines {
  readonly #ms: number;
  readonly #slotMs: number;
  #opened = -Infinity;
  #slot = new Set<ExchangeSignal>();

  constructor(ms: number) {
    this.#ms = ms;
    this.#slotMs = Math.max(1, Math.min(100, Math.floor(ms / 10)));
  }

  /** A signal aborted at this exchange's deadline; `end` it when the exchange is over. */
  begin(): ExchangeSignal {
    const now = performance.now();
    if (now - this.#opened >= this.#slotMs) {
      const slot = new Set<ExchangeSignal>();
      this.#slot = slot;
      this.#opened = now;
      // unref'd: an exchange in flight keeps the process alive by its socket; a spent slot must not
      setTimeout(() => Deadlines.#fire(slot), this.#ms).unref();
    }
    const signal = new ExchangeSignal(this.#slot);
    this.#slot.add(signal);
    return signal;
  }

  end(signal: ExchangeSignal): void {
    signal.slot.delete(signal);
  }

  static #fire(slot: Set<ExchangeSignal>): void {
    const reason = new Error('deadline passed');
    for (const signal of slot) signal.abort(reason);
    slot.clear();
  }
}
