/**
 * "Faster than today" measured in the same run: Icefront as it was when an issue was filed,
 * unpacked from this clone's own history (git archive) into bench/.work/build-<commit> and
 * installed from that commit's own package-lock (npm ci), once; a benchmark starts its
 * `bin/icefront.js` beside the current build and compares the two on the same machine, minutes
 * apart, instead of against figures from another day.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { WORK } from './synthetic-table.js';

const REPO = path.resolve(import.meta.dirname, '..');

/**
 * Issue #12 ("planning never blocks the door … a cold 100k-file /plan runs ≥ 1.6× faster than
 * today") was filed against 009dac9, the last commit landed before it (stop 14's head; stop 15
 * found #12 open and unstarted).
 */
export const ISSUE_12_FILED_AT = '009dac92479d832c15fcdb31682e7f05494a6835';

/** The path of that commit's `bin/icefront.js`, unpacked and installed on first use. */
export function ensureBuildAt(commit: string): string {
  const root = path.join(WORK, `build-${commit.slice(0, 12)}`);
  const marker = path.join(root, '.complete');
  if (!fs.existsSync(marker)) {
    try {
      execFileSync('git', ['-C', REPO, 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' });
    } catch {
      throw new Error(`bench: commit ${commit} is not in this clone's history (a shallow clone? git fetch --unshallow)`);
    }
    fs.rmSync(root, { recursive: true, force: true });
    fs.mkdirSync(root, { recursive: true });
    const started = performance.now();
    const tar = execFileSync('git', ['-C', REPO, 'archive', '--format=tar', commit], { maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', root], { input: tar });
    // its own locked dependencies; no install scripts (that build ran its TypeScript through tsx)
    execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    fs.writeFileSync(marker, commit);
    console.error(`installed the build of ${commit.slice(0, 7)} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  return path.join(root, 'bin', 'icefront.js');
}
