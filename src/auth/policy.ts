import type { Access, AllowRule } from '../config/index.js';
import type { Levels, Principal } from './principal.js';

/**
 * The `auth.allow` rules as one decision point (compare Polaris' authorizer, Lakekeeper's
 * authorizer trait: many callers, one place that says yes or no). Pure: data in, verdicts out.
 *
 * A rule matches a request when it names the caller (a principal, `*`, or one of its roles), the
 * catalog (or `*`), a namespace at or above the one asked about (none: the whole catalog), and an
 * access that covers the request (`write` covers `read`). The first matching rule decides; with
 * allow rules only, that is the same as "any rule", and its index is what the audit log names.
 * No matching rule: refused.
 *
 * Seeing is more than reading: a namespace on the path to a readable one (`sales` when only
 * `sales.eu` is readable) is visible — it is listed and it exists — so that clients can walk
 * down to what they may read; its properties, tables and views stay out of reach.
 */
export class AccessPolicy {
  readonly #rules: readonly AllowRule[];
  readonly #adminRoles: ReadonlySet<string>;

  constructor(rules: readonly AllowRule[], adminRoles: readonly string[]) {
    this.#rules = rules;
    this.#adminRoles = new Set(adminRoles);
  }

  /** Index in `auth.allow` of the first rule giving `access` to `namespace` (and below) of `catalog`. */
  ruleFor(principal: Principal, catalog: string, namespace: Levels, access: Access): number | undefined {
    const i = this.#rules.findIndex((rule) => applies(rule, principal, catalog, access) && covers(rule, namespace));
    return i === -1 ? undefined : i;
  }

  allows(principal: Principal, catalog: string, namespace: Levels, access: Access): boolean {
    return this.ruleFor(principal, catalog, namespace, access) !== undefined;
  }

  /** Readable, or a proper ancestor of a readable namespace. */
  sees(principal: Principal, catalog: string, namespace: Levels): boolean {
    return this.#rules.some(
      (rule) => applies(rule, principal, catalog, 'read') && (covers(rule, namespace) || rule.namespaces!.some((root) => isPrefix(namespace, root))),
    );
  }

  /** Whether any rule lets the caller read something in `catalog`. */
  seesCatalog(principal: Principal, catalog: string): boolean {
    return this.#rules.some((rule) => applies(rule, principal, catalog, 'read'));
  }

  /** Whether any rule lets the caller write something in `catalog`. */
  writesSomewhere(principal: Principal, catalog: string): boolean {
    return this.#rules.some((rule) => applies(rule, principal, catalog, 'write'));
  }

  /** Operator surfaces (`/metrics`): one of `auth.admin-roles`. */
  isAdmin(principal: Principal): boolean {
    return principal.roles.some((role) => this.#adminRoles.has(role));
  }
}

function applies(rule: AllowRule, principal: Principal, catalog: string, access: Access): boolean {
  const who = rule.principals.includes('*') || rule.principals.includes(principal.name) || principal.roles.some((role) => rule.roles.includes(role));
  const where = rule.catalogs.includes('*') || rule.catalogs.includes(catalog);
  return who && where && (access === 'read' || rule.access === 'write');
}

/** The rule reaches `namespace`: it names no namespaces, or one at or above it. */
function covers(rule: AllowRule, namespace: Levels): boolean {
  return rule.namespaces === undefined || rule.namespaces.some((root) => isPrefix(root, namespace));
}

/** `a` is `b` or an ancestor of it, level by level. */
function isPrefix(a: Levels, b: Levels): boolean {
  return a.length <= b.length && a.every((level, i) => level === b[i]);
}
