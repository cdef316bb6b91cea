/**
 * Java's text for a float or double (`Float.toString` / `Double.toString`, which Jackson writes
 * for `SingleValueParser` floats): shortest round-trip digits, always with a decimal point,
 * plain for 1e-3 ≤ |v| < 1e7 (`100.0`, `0.001`, `1.23`), otherwise `1.0E10`, `1.234E-5`.
 * A float (binary32) gets the shortest digits that round-trip through binary32.
 */
export function javaFloatText(n: number, single: boolean): string {
  if (!Number.isFinite(n)) throw new TypeError(`No decimal text for ${n}`);
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const sci = single ? shortestSingle(n) : n.toExponential();
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(sci)!;
  const sign = m[1]!;
  const digits = (m[2]! + (m[3] ?? '')).replace(/0+$/, '') || '0';
  const exp = Number(m[4]);
  const abs = Math.abs(n);
  if (abs >= 1e-3 && abs < 1e7) {
    if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
    const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
    const frac = digits.slice(exp + 1) || '0';
    return `${sign}${intPart}.${frac}`;
  }
  return `${sign}${digits[0]}.${digits.slice(1) || '0'}E${exp}`;
}

function shortestSingle(n: number): string {
  for (let p = 0; p < 9; p += 1) {
    const s = n.toExponential(p);
    if (Math.fround(Number(s)) === n) return s;
  }
  return n.toExponential(8);
}
