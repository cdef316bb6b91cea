/**
 * Per-request side data kept on the request object itself, under a symbol of its own, rather than
 * in a WeakMap keyed by the request. A WeakMap entry whose key is a young object pays V8's
 * ephemeron write barrier and the table's upkeep, every request: together about a microsecond of
 * a warm load-table (issue #12 profile, perf). The value lives and dies with the request object,
 * as the WeakMap entry did, and nobody without the slot can read it.
 */
export interface RequestSlot<T> {
  get(request: object): T | undefined;
  set(request: object, value: T): void;
}

export function requestSlot<T>(name: string): RequestSlot<T> {
  const key = Symbol(name);
  return {
    get: (request) => (request as Record<symbol, T | undefined>)[key],
    set: (request, value) => {
      (request as Record<symbol, T>)[key] = value;
    },
  };
}
