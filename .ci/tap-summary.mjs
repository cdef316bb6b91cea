// Reads the raw TAP of one or more test runs (`node tap-summary.mjs LABEL=FILE …`, or plain FILEs)
// and prints a line per run, then the plain closing line CI reads, summed over the runs.
// Counts every subtest point (a test file or a t.test), not single assertions. Before those lines
// it names each failed point by its path of subtests (at most 40): CI shows only the end of a run.
import fs from 'node:fs';

let pass = 0, fail = 0, skip = 0;
const perRun = [];
const failures = [];
const runs = process.argv.slice(2);
for (const arg of runs) {
  const [label, file] = arg.includes('=') ? arg.split('=', 2) : ['', arg];
  const counted = count(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
  pass += counted.pass;
  fail += counted.fail;
  skip += counted.skip;
  perRun.push(`${label || file}: ${line(counted)}`);
  for (const f of counted.failed) failures.push(`${label || file}: ${f}`);
}
if (failures.length) {
  console.log(`failed (${failures.length}):`);
  for (const f of failures.slice(0, 40)) console.log(`  ${f.length > 400 ? `${f.slice(0, 400)}…` : f}`);
  if (failures.length > 40) console.log(`  … and ${failures.length - 40} more`);
}
if (runs.length > 1) for (const l of perRun) console.log(l);
console.log(line({ pass, fail, skip }));

function line({ pass, fail, skip }) {
  return `${pass} passed, ${fail} failed${skip ? `, ${skip} skipped` : ''}`;
}

function count(text) {
  const final = [...text.matchAll(/^# \{ (total: \d+[^}]*) \}$/gm)].pop();
  // a run that never reached its summary (it died, or never started) counts as one failure
  if (!final) return { pass: 0, fail: 1, skip: 0, failed: ['the run printed no summary (it died or never started)'] };
  let pass = 0, fail = 0, skip = 0;
  const failed = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*(not ok|ok) \d+ - (.*?)(# (SKIP|TODO)\b.*)?$/.exec(lines[i]);
    if (!m) continue;
    // A subtest point is followed by a YAML block or preceded by its own "# Subtest" header;
    // assertions in tap 21 carry no "# Subtest". Count points whose name matches a Subtest header.
    if (!/^\s*# Subtest: /.test(findHeader(lines, i))) continue;
    if (m[4]) skip++;
    else if (m[1] === 'ok') pass++;
    else {
      fail++;
      // the innermost failed points only: a file fails when one of its subtests does
      const path = [...parents(lines, i), m[2].replace(/\s*# time=[\d.]+m?s\s*$/, '').trim()].join(' › ');
      if (!failed.some((f) => f.startsWith(`${path} › `))) failed.push(path);
    }
  }
  const o = Object.fromEntries(final[1].split(', ').map((kv) => kv.split(': ')).map(([k, v]) => [k, +v]));
  if (fail === 0 && (o.fail ?? 0) > 0) fail = o.fail;
  return { pass, fail, skip, failed };
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

/** The names of the subtests enclosing line `idx`, outermost first (their "# Subtest:" headers at smaller indents). */
function parents(all, idx) {
  const names = [];
  let indent = /^(\s*)/.exec(all[idx])[1].length;
  for (let j = idx - 1; j >= 0 && indent > 0; j--) {
    const ind = /^(\s*)/.exec(all[j])[1].length;
    const header = /^\s*# Subtest: (.*)$/.exec(all[j]);
    if (header && ind < indent) {
      names.unshift(header[1].trim());
      indent = ind;
    }
  }
  return names;
}
