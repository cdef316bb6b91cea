/**
 * Every problem found in one config file, each at its line, reported together in file order and
 * one line each (`c.yaml:7: catalogs.demo.warehous: unknown key …`), so a first run shows all there
 * is to fix rather than one mistake per try (issue #32).
 */
import { isMap, isScalar, type Document, type LineCounter, type Node } from 'yaml';
import { fail } from '../errors/index.js';

/** Reports a problem at a key path; the line is the key's, or its nearest parent's. */
export type Report = (keyPath: readonly (string | number)[], message: string) => void;

export class Problems {
  readonly #found: { line: number; text: string }[] = [];

  constructor(
    private readonly source: string,
    private readonly lines: LineCounter,
    private readonly doc: Document,
  ) {}

  /** A problem at `keyPath`, at the line of that key (or of its nearest parent that is there). */
  readonly key: Report = (keyPath, message) => this.at(nearestNode(this.doc, keyPath.map(String)), `${keyPath.join('.') || '(root)'}: ${message}`);

  /** A problem about a key as a whole (what the block under it is), at the line of the key itself. */
  onKey(keyPath: readonly string[], message: string): void {
    const parent = (keyPath.length === 1 ? this.doc.contents : this.doc.getIn(keyPath.slice(0, -1), true)) as Node | undefined;
    const pair = isMap(parent) ? parent.items.find((p) => isScalar(p.key) && String(p.key.value) === keyPath.at(-1)) : undefined;
    if (pair && isScalar(pair.key)) this.at(pair.key, `${keyPath.join('.')}: ${message}`);
    else this.key(keyPath, message);
  }

  /** A problem at `node`'s line (the file's, without one); `text` names the key itself. */
  at(node: Node | undefined | null, text: string): void {
    this.atOffset(node?.range?.[0], text);
  }

  atOffset(offset: number | undefined, text: string): void {
    const line = offset === undefined ? 0 : this.lines.linePos(offset).line;
    this.#found.push({ line, text: `${offset === undefined ? this.source : `${this.source}:${line}`}: ${text}` });
  }

  /** CONFIG_INVALID naming every problem, one line each, in file order; nothing when there is none. */
  throwIfAny(): void {
    if (this.#found.length === 0) return;
    const lines = [...this.#found].sort((a, b) => a.line - b.line).map((p) => p.text);
    throw fail('CONFIG_INVALID', [...new Set(lines)].join('\n'));
  }
}

/** The node of `keyPath`, or of its nearest parent; an unknown key is found on its own key node. */
export function nearestNode(doc: Document, keyPath: readonly string[]): Node | undefined {
  for (let n = keyPath.length; n >= 0; n--) {
    const prefix = keyPath.slice(0, n);
    const node = (prefix.length === 0 ? doc.contents : doc.getIn(prefix, true)) as Node | undefined;
    if (node && node.range) {
      if (n === keyPath.length || !isMap(node)) return node;
      // The key itself (e.g. an unknown key) is on the pair's key node.
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === keyPath[n]);
      return (pair?.key as Node | undefined) ?? node;
    }
  }
  return undefined;
}
