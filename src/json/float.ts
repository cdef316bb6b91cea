/**
 * A JSON number written with a fraction or exponent, kept as its exact source text: float single
 * values must keep their decimal point (wire-format.md §17; Jackson rejects `1` as a float).
 */
export class JsonFloat {
  readonly text: string;

  constructor(text: string) {
    if (!FLOAT_TEXT.test(text)) throw new TypeError(`Not a JSON number with a fraction or exponent: ${text}`);
    this.text = text;
  }

  valueOf(): number {
    return Number(this.text);
  }

  toString(): string {
    return this.text;
  }
}

const FLOAT_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+(?:[eE][+-]?\d+)?|[eE][+-]?\d+)$/;

/** A JsonFloat that always carries a decimal point or exponent (`1` → `1.0`; Jackson rejects `1` as a float). */
export function jsonFloat(n: number): JsonFloat {
  if (!Number.isFinite(n)) throw new TypeError(`JSON cannot represent ${n}`);
  const text = Object.is(n, -0) ? '-0.0' : String(n);
  return new JsonFloat(/[.eE]/.test(text) ? text : `${text}.0`);
}
