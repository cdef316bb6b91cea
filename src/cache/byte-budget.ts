/**
 * A byte budget shared by concurrent work: bytes are taken while something is held in memory and
 * given back when it is done, so many large answers at once cannot together exhaust memory even
 * when each is under its own cap. Knows nothing about what the bytes are.
 */
export interface ByteBudget {
  /** Takes `bytes`; false (and nothing taken) when that would pass the budget. */
  take(bytes: number): boolean;
  give(bytes: number): void;
  readonly used: number;
  readonly max: number;
}

export function createByteBudget(max: number): ByteBudget {
  let used = 0;
  return {
    take(bytes) {
      if (used + bytes > max) return false;
      used += bytes;
      return true;
    },
    give(bytes) {
      used = Math.max(0, used - bytes);
    },
    get used() {
      return used;
    },
    max,
  };
}
