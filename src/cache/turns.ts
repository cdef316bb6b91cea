/**
 * Work of this process on the same keys, one at a time, in the order it arrives. A run waits for
 * every earlier run that holds any of its keys (a run may hold several: a transaction's tables),
 * then takes its turn; a failed run passes the turn on like one that succeeded. The wait is
 * registered in the caller's own step, so runs holding several keys never wait on one another in
 * a cycle: each waits only for runs that arrived before it.
 */
export class Turns {
  /** The last run of each key, settled (never rejected) when it ends. */
  private readonly last = new Map<string, Promise<void>>();

  run<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const held = [...new Set(keys)];
    const earlier = held.map((k) => this.last.get(k)).filter((p) => p !== undefined);
    const turn = (earlier.length === 0 ? Promise.resolve() : Promise.all(earlier)).then(work);
    const settled = turn.then(
      () => undefined,
      () => undefined,
    );
    for (const k of held) this.last.set(k, settled);
    void settled.then(() => {
      for (const k of held) if (this.last.get(k) === settled) this.last.delete(k);
    });
    return turn;
  }

  /** Keys with a run going on or waiting. */
  get busy(): number {
    return this.last.size;
  }
}
