/**
 * Writes the pinned range (benchmarks/bisect/golang-x-exp.json) from a probe of the module
 * proxy (probe-go-proxy.sh's TSV):
 *   node --import tsx benchmarks/bisect/pin-range.ts PROBE.tsv GOOD_HASH COMMITS > OUT.json
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { cutWindow, parseProbe, type RealRange } from './real-range.js';

const [probe, good, commits] = process.argv.slice(2);
if (probe === undefined || good === undefined || !(Number(commits) > 0))
  throw new Error('usage: pin-range.ts PROBE.tsv GOOD_HASH COMMITS');
const window = cutWindow(parseProbe(readFileSync(probe, 'utf8')), good, Number(commits));
const refused = window.filter((c) => !c.served).length;
// each served commit's zip hash, pinned (the checksum database does not know every one of
// them: 404 for v0.0.0-20230807203716-38c65ebc0710, so the range is fetched with GONOSUMDB and
// checked against these instead)
for (const c of window)
  if (c.served)
    c.sum = (
      JSON.parse(
        execFileSync('go', ['mod', 'download', '-json', `golang.org/x/exp@${c.version}`], {
          cwd: os.tmpdir(),
          env: { ...process.env, GONOSUMDB: 'golang.org/x/exp', GOFLAGS: '-modcacherw' },
          encoding: 'utf8',
        }),
      ) as { Sum: string }
    ).Sum;
const range: RealRange = {
  module: 'golang.org/x/exp',
  package: './rand',
  benchmark: 'BenchmarkPerm30',
  plantIn: { file: 'rand/rand.go', head: 'func (r *Rand) Perm(n int) []int {', feeds: 'n' },
  made: `probe-go-proxy.sh /path/to/golang/exp.git golang.org/x/exp 1141 6 (every first-parent commit of golang/exp's master to ca536658362e, 2026-08-20; ${window.length} of them here, good ${window[0]!.hash.slice(0, 12)} and the ${Number(commits)} after it, oldest first), then pin-range.ts (which pins each served zip's h1: hash from go mod download: the checksum database answers 404 for v0.0.0-20230807203716-38c65ebc0710, so the range is fetched with GONOSUMDB=golang.org/x/exp and checked against these). The proxy served 465 of the 1141 commits and refused 676 (403 "This module version is not available"); the longest run of consecutive served commits is 40, so no window of 64 is served whole: this one, the fewest refused (${refused}), keeps the refused commits as commits whose state cannot be fetched (they do not build). rand (BenchmarkPerm30) is touched in it only by comment and test-message edits.`,
  commits: window,
};
process.stdout.write(`${JSON.stringify(range, null, 2)}\n`);
