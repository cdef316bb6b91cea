/**
 * What ajv found wrong with a config (every error, `allErrors`), said as one problem per key:
 * branch noise dropped (`if`, the losing `anyOf` branches), an unknown key with the known key it
 * is most likely a typo of, a block misplaced under `catalogs` named as such (issue #32).
 */
import type { ErrorObject } from 'ajv';
import { CATALOG_KEYS, TOP_LEVEL_KEYS } from './schema.js';

/** One thing wrong, at a key path (`['catalogs', 'demo', 'warehouse']`). */
export interface KeyProblem {
  readonly keyPath: readonly string[];
  readonly message: string;
}

/** ajv's errors (compiled with `allErrors` and `verbose`) as problems, one per thing to fix. */
export function schemaProblems(errors: readonly ErrorObject[]): KeyProblem[] {
  const problems: KeyProblem[] = [];
  // a key the user wrote that looks like a missing required one: the "is required" says nothing more
  const suggested = new Set<string>();
  const missing: { at: string; err: ErrorObject }[] = [];
  for (const err of withoutBranchNoise(errors)) {
    if ('combined' in err) {
      problems.push({ keyPath: pathOf(err.error), message: err.combined });
      continue;
    }
    if (err.keyword === 'required') {
      missing.push({ at: `${err.instancePath}/${String(err.params.missingProperty)}`, err });
      continue;
    }
    if (err.keyword === 'additionalProperties') {
      const key = String(err.params.additionalProperty);
      const known = Object.keys((err.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const guess = closest(key, known);
      if (guess) suggested.add(`${err.instancePath}/${guess}`);
      problems.push({ keyPath: pathOf(err), message: `unknown key${guess ? ` (did you mean \`${guess}\`?)` : ''}` });
      continue;
    }
    problems.push({ keyPath: pathOf(err), message: describe(err) });
  }
  for (const { at, err } of missing) if (!suggested.has(at)) problems.push({ keyPath: pathOf(err), message: 'is required' });
  return problems;
}

/**
 * Entries under `catalogs` that are not catalogs: no `type`, and named like a top-level block
 * (`planning:` indented under `catalogs:`) or like a catalog's own key (a catalog written without
 * its name). Their other errors (`type: is required`) would only mislead.
 */
export function misplacedUnderCatalogs(data: unknown): KeyProblem[] {
  const catalogs = isObject(data) ? data['catalogs'] : undefined;
  if (!isObject(catalogs)) return [];
  const problems: KeyProblem[] = [];
  const shape = "catalogs holds one entry per catalog, each with a 'type'";
  for (const [name, entry] of Object.entries(catalogs)) {
    if (isObject(entry) && 'type' in entry) continue;
    if (TOP_LEVEL_KEYS.includes(name) && name !== 'catalogs')
      problems.push({ keyPath: ['catalogs', name], message: `looks like the top-level '${name}' block, indented under catalogs by mistake; ${shape}` });
    else if (CATALOG_KEYS.includes(name))
      problems.push({ keyPath: ['catalogs', name], message: `looks like a catalog's '${name}' key, not a catalog (is the catalog's name missing above it?); ${shape}` });
  }
  return problems;
}

/**
 * The candidate `name` is most likely a typo of: the nearest by edit distance (case, `_` and `-`
 * aside), within a third of its length (at least 1). Undefined when none is that near.
 */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[_\s]/g, '-');
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(norm(name), norm(candidate));
    // on a tie, a candidate the name begins (`of` → `off`, not `on`)
    if (d < bestDistance || (d === bestDistance && candidate.startsWith(name) && !best!.startsWith(name))) [best, bestDistance] = [candidate, d];
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(Math.max(name.length, best.length) / 3)) ? best : undefined;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps cost 1. */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * ajv's errors without what only restates another: `if` ("must match then": its `then` errors are
 * there), `propertyNames` (the name's own error is there), and an `anyOf`'s losing branches. A
 * failed `anyOf` becomes the errors of the branch whose shape the value has (an array for a list
 * of names), or, when it has none of their shapes, one combined error: "must be integer or auto".
 */
function withoutBranchNoise(errors: readonly ErrorObject[]): (ErrorObject | { combined: string; error: ErrorObject })[] {
  const inside = (err: ErrorObject, group: ErrorObject) =>
    err !== group &&
    err.schemaPath.startsWith(`${group.schemaPath}/`) &&
    (err.instancePath === group.instancePath || err.instancePath.startsWith(`${group.instancePath}/`));
  const groups = errors.filter((e) => e.keyword === 'anyOf');
  const out: (ErrorObject | { combined: string; error: ErrorObject })[] = [];
  for (const group of groups.filter((g) => !groups.some((outer) => inside(g, outer)))) {
    const branches = new Map<string, ErrorObject[]>();
    for (const err of errors.filter((e) => inside(e, group) && e.keyword !== 'anyOf')) {
      const branch = err.schemaPath.slice(group.schemaPath.length + 1).split('/')[0]!;
      branches.set(branch, [...(branches.get(branch) ?? []), err]);
    }
    const shaped = [...branches.values()].find((errs) => errs.every((e) => e.instancePath !== group.instancePath));
    if (shaped) out.push(...shaped);
    else {
      const said = [...new Set([...branches.values()].flat().map(describe))];
      const combined = said.every((s) => s.startsWith('must be ')) ? `must be ${said.map((s) => s.slice('must be '.length)).join(' or ')}` : said.join(', or ');
      out.push({ combined, error: group });
    }
  }
  const grouped = (err: ErrorObject) => groups.some((group) => group === err || inside(err, group));
  return [...errors.filter((e) => e.keyword !== 'if' && e.keyword !== 'propertyNames' && !grouped(e)), ...out];
}

function pathOf(err: ErrorObject): string[] {
  const parts = err.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (err.keyword === 'additionalProperties') parts.push(String(err.params.additionalProperty));
  if (err.keyword === 'required') parts.push(String(err.params.missingProperty));
  if (err.propertyName !== undefined) parts.push(err.propertyName);
  return parts;
}

function describe(err: ErrorObject): string {
  if (err.propertyName === undefined) return describeValue(err);
  if (err.instancePath === '/catalogs') return 'is not a valid name (letters, digits, . _ ~ -; it becomes a URL path segment)';
  return `is not a valid key (it ${describeValue(err)})`;
}

function describeValue(err: ErrorObject): string {
  switch (err.keyword) {
    case 'required':
      return 'is required';
    case 'enum': {
      const allowed = (err.params.allowedValues as unknown[]).map(String);
      const guess = typeof err.data === 'string' ? closest(err.data, allowed) : undefined;
      return `must be one of ${allowed.join(', ')}${guess ? ` (did you mean \`${guess}\`?)` : ''}`;
    }
    case 'const':
      return `must be ${String(err.params.allowedValue)}`;
    case 'minLength':
      return err.params.limit === 1 ? 'must not be empty' : (err.message ?? 'is too short');
    case 'pattern':
      // a key whose pattern says more than a regular expression carries its reason as `description`
      return (err.parentSchema as { description?: string } | undefined)?.description ?? err.message ?? 'is invalid';
    default:
      return err.message ?? 'is invalid';
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
