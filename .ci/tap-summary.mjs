// Reads the raw TAP of one or more test runs (`node tap-summary.mjs LABEL=FILE …`, or plain FILEs)
// and prints a line per run, then the plain closing line CI reads, summed over the runs.
// Counts every subtest point (a test file or a t.test), not single assertions.
import fs from 'node:fs';

let pass = 0, fail = 0, skip = 0;
const runs = process.argv.slice(2);
for (const arg of runs) {
  const [label, file] = arg.includes('=') ? arg.split('=', 2) : ['', arg];
  const counted = count(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
  pass += counted.pass;
  fail += counted.fail;
  skip += counted.skip;
  if (runs.length > 1) console.log(`${label || file}: ${line(counted)}`);
}
console.log(line({ pass, fail, skip }));

function line({ pass, fail, skip }) {
  return `${pass} passed, ${fail} failed${skip ? `, ${skip} skipped` : ''}`;
}

function count(text) {
  const final = [...text.matchAll(/^# \{ (total: \d+[^}]*) \}$/gm)].pop();
  // a run that never reached its summary (it died, or never started) counts as one failure
  if (!final) return { pass: 0, fail: 1, skip: 0 };
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
  return { pass, fail, skip };
}

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
