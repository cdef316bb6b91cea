/**
 * HTML built from templates whose every interpolated value is escaped (HTML 5 §13.1.2.6: `&`, `<`,
 * `>` in text, `"` and `'` in quoted attribute values) unless it is already `Html`. The status
 * page writes no markup any other way, so a table or principal named `<script>` stays text.
 */
export class Html {
  constructor(readonly text: string) {}
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Values: Html as is; arrays joined; null, undefined and false as nothing; anything else escaped text. */
export function html(strings: TemplateStringsArray, ...values: readonly unknown[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += piece(value) + strings[i + 1]!;
  });
  return new Html(out);
}

function piece(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(piece).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
}
