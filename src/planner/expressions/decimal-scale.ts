/**
 * Moving a decimal literal to a column's scale. Decimal columns hold at most 38 digits (spec
 * "Primitive Types"), so a literal whose magnitude passes 10^80 unscaled units is beyond every
 * column value either way, and is reported as above-max / below-min instead of being expanded.
 */
export type Rescaled =
  | { readonly kind: 'exact'; readonly unscaled: bigint }
  | { readonly kind: 'between'; readonly floor: bigint }
  | { readonly kind: 'above-max' }
  | { readonly kind: 'below-min' };

const LIMIT_DIGITS = 80;

function digits(v: bigint): number {
  return (v < 0n ? -v : v).toString().length;
}

function beyond(unscaled: bigint): Rescaled {
  return { kind: unscaled > 0n ? 'above-max' : 'below-min' };
}

/**
 * The literal unscaled·10^-from at scale `to`: exact, or strictly between `floor` and `floor + 1`
 * (units of 10^-to) when it has more fraction digits than the column keeps.
 */
export function rescaleExact(unscaled: bigint, from: number, to: number): Rescaled {
  if (unscaled === 0n) return { kind: 'exact', unscaled: 0n };
  if (from <= to) {
    if (to - from + digits(unscaled) > LIMIT_DIGITS) return beyond(unscaled);
    return { kind: 'exact', unscaled: unscaled * 10n ** BigInt(to - from) };
  }
  if (from - to > digits(unscaled)) return { kind: 'between', floor: unscaled < 0n ? -1n : 0n };
  const d = 10n ** BigInt(from - to);
  const q = unscaled / d;
  if (q * d === unscaled) return { kind: 'exact', unscaled: q };
  return { kind: 'between', floor: unscaled < 0n ? q - 1n : q };
}

/** Java `BigDecimal.setScale(to, RoundingMode.HALF_UP)`: ties round away from zero. */
export function rescaleHalfUp(unscaled: bigint, from: number, to: number): Rescaled {
  const r = rescaleExact(unscaled, from, to);
  if (r.kind !== 'between') return r;
  if (from - to > digits(unscaled)) return { kind: 'exact', unscaled: 0n };
  const d = 10n ** BigInt(from - to);
  const q = unscaled / d;
  const rest = unscaled - q * d;
  const twice = 2n * (rest < 0n ? -rest : rest);
  return { kind: 'exact', unscaled: twice >= d ? q + (unscaled < 0n ? -1n : 1n) : q };
}
