// Reads raw TAP from `npm test` and prints the plain closing line CI reads.
// Counts every subtest point (a test file or a t.test), not single assertions.
import fs from 'node:fs';

const text = fs.readFileSync(process.argv[2], 'utf8');
const final = [...text.matchAll(/^# \{ (total: \d+[^}]*) \}$/gm)].pop();
if (!final) {
  console.log('0 passed, 1 failed');
  process.exit(0);
}
let pass = 0, fail = 0, skip = 0;
const lines = text.split('\n');
for (let i = 0; i < lines.length; i++) {
  const m = /^\s*(not ok|ok) \d+ - .*?(# (SKIP|TODO)\b.*)?$/.exec(lines[i]);
  if (!m) continue;
  // A subtest point is followed by a YAML block or preceded by its own "# Subtest" header;
  // assertions in tap 21 carry no "# Subtest". Count points whose name matches a Subtest header.
  if (!/^\s*# Subtest: /.test(findHeader(lines, i))) continue;
  if (m[3]) skip++;
  else if (m[1] === 'ok') pass++;
  else fail++;
}
const o = Object.fromEntries(final[1].split(', ').map((kv) => kv.split(': ')).map(([k, v]) => [k, +v]));
if (fail === 0 && (o.fail ?? 0) > 0) fail = o.fail;
console.log(`${pass} passed, ${fail} failed${skip ? `, ${skip} skipped` : ''}`);

function findHeader(all, idx) {
  const indent = /^(\s*)/.exec(all[idx])[1].length;
  for (let j = idx - 1; j >= 0; j--) {
    const ind = /^(\s*)/.exec(all[j])[1].length;
    if (ind === indent && /^\s*# Subtest: /.test(all[j])) return all[j];
    if (ind === indent && /^\s*(not )?ok \d+ /.test(all[j])) return '';
    if (ind < indent) return '';
  }
  return '';
}
