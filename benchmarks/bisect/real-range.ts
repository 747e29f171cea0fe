/**
 * The pinned range of a library's real consecutive commits that `bench:bisect --range real`
 * rebuilds (benchmarks/bisect/golang-x-exp.json), and the pure steps around it: reading the
 * probe of the module proxy (probe-go-proxy.sh's TSV), cutting a window of it, choosing the
 * commits a slowdown may be planted at, and planting it into a Go function. No network, no
 * processes: benchmarks/bisect.ts does the fetching and the git work.
 */

/** One first-parent commit of the library, as probed. */
export interface ProbedCommit {
  hash: string;
  /** Its pseudo-version: v0.0.0-<committer time, UTC>-<12 hex of the hash>. */
  version: string;
  /** Whether the module proxy served it (`go list -m -json MODULE@VERSION`). */
  served: boolean;
  subject: string;
  /** The module zip's hash (`go mod download -json`'s Sum, h1:...) for a served commit, pinned. */
  sum?: string;
}

/** The pinned range: good (the first commit) and the commits after it, oldest first. */
export interface RealRange {
  module: string;
  /** The package whose benchmark is the workload, and the benchmark. */
  package: string;
  benchmark: string;
  /**
   * The Go function the slowdown is planted in (its first line, as in the source), and an int
   * variable of it that the rest of the function uses (`feeds`): the planted work's result is
   * added to it (times a zero the compiler cannot see), so the function waits for that work.
   */
  plantIn: { file: string; head: string; feeds: string };
  /** How the file was made. */
  made: string;
  commits: ProbedCommit[];
}

const PSEUDO = /^v0\.0\.0-(\d{14})-([0-9a-f]{12})$/;

/** probe-go-proxy.sh's output (newest first), as commits oldest first; bad lines are named. */
export function parseProbe(text: string): ProbedCommit[] {
  const rows = text
    .split('\n')
    .filter((line) => line !== '')
    .map((line, i) => {
      const [hash, version, status, ...subject] = line.split('\t');
      const where = `probe line ${i + 1}`;
      if (!/^[0-9a-f]{40}$/.test(hash ?? ''))
        throw new Error(`${where}: hash ${JSON.stringify(hash)}; expected 40 hex digits`);
      checkVersion(where, hash!, version ?? '');
      if (status !== 'served' && status !== 'refused')
        throw new Error(`${where}: status ${JSON.stringify(status)}; accepted: served, refused`);
      return {
        hash: hash!,
        version: version!,
        served: status === 'served',
        subject: subject.join('\t'),
      };
    });
  return rows.reverse();
}

function checkVersion(where: string, hash: string, version: string): void {
  const m = PSEUDO.exec(version);
  if (m === null || m[2] !== hash.slice(0, 12))
    throw new Error(
      `${where}: version ${JSON.stringify(version)}; expected v0.0.0-<14 digits>-${hash.slice(0, 12)}`,
    );
}

/**
 * The window of `commits` commits after `good` (good included first). Good and the last
 * commit must be served (the ends are measured); unserved commits inside stay, as commits
 * whose state cannot be fetched.
 */
export function cutWindow(all: ProbedCommit[], good: string, commits: number): ProbedCommit[] {
  const start = all.findIndex((c) => c.hash.startsWith(good));
  if (good.length < 7 || start < 0)
    throw new Error(
      `good ${JSON.stringify(good)}: no probed commit with that hash (7+ hex digits)`,
    );
  if (all.some((c, i) => i > start && c.hash.startsWith(good)))
    throw new Error(`good ${JSON.stringify(good)}: more than one probed commit has that prefix`);
  const window = all.slice(start, start + commits + 1);
  if (window.length < commits + 1)
    throw new Error(
      `good ${good}: only ${window.length - 1} probed commits after it; ${commits} asked for`,
    );
  for (const end of [window[0]!, window.at(-1)!])
    if (!end.served)
      throw new Error(`the range's end ${end.version} is not served by the module proxy`);
  return window;
}

/** Checks a pinned range read from JSON; every error names the field and the value. */
export function checkRange(value: unknown, file: string): RealRange {
  const r = value as Partial<RealRange>;
  for (const key of ['module', 'package', 'benchmark', 'made'] as const)
    if (typeof r[key] !== 'string' || r[key] === '')
      throw new Error(`${file}: "${key}" is ${JSON.stringify(r[key])}; expected a string`);
  if (
    typeof r.plantIn?.file !== 'string' ||
    typeof r.plantIn.head !== 'string' ||
    typeof r.plantIn.feeds !== 'string' ||
    !/^[A-Za-z_]\w*$/.test(r.plantIn.feeds)
  )
    throw new Error(
      `${file}: "plantIn" is ${JSON.stringify(r.plantIn)}; expected { file, head, feeds: an int variable's name }`,
    );
  if (!Array.isArray(r.commits) || r.commits.length < 3)
    throw new Error(`${file}: "commits" must list good and at least two commits after it`);
  r.commits.forEach((c, i) => {
    const where = `${file}: commits[${i}]`;
    if (typeof c.hash !== 'string' || !/^[0-9a-f]{40}$/.test(c.hash))
      throw new Error(`${where}.hash is ${JSON.stringify(c.hash)}; expected 40 hex digits`);
    checkVersion(where, c.hash, c.version);
    if (typeof c.served !== 'boolean')
      throw new Error(`${where}.served is ${JSON.stringify(c.served)}; expected true or false`);
    if (c.served && !/^h1:[A-Za-z0-9+/]{43}=$/.test(c.sum ?? ''))
      throw new Error(
        `${where}.sum is ${JSON.stringify(c.sum)}; a served commit pins its zip's h1: hash`,
      );
  });
  if (!r.commits[0]!.served || !r.commits.at(-1)!.served)
    throw new Error(`${file}: the first and last commits (the range's ends) must be served`);
  return r as RealRange;
}

/**
 * The commits (indexes 2..N-1 of the N after good, as the planted ranges draw them) a slowdown
 * may be planted at so that the exact commit can be named: served, with a served parent (next
 * to a commit that cannot be built, a bisection can only say "among" the two).
 */
export function plantable(commits: readonly ProbedCommit[]): number[] {
  const out: number[] = [];
  for (let i = 2; i < commits.length - 1; i++)
    if (commits[i]!.served && commits[i - 1]!.served) out.push(i);
  return out;
}

/**
 * Go source with `rounds` rounds of integer arithmetic (a chain of multiplications, each
 * waiting for the one before) at the top of the function `head`, whose result `feeds` the
 * function's int variable `feeds` (times `duetkitZero`, a package variable that stays 0 but
 * that the compiler cannot fold): the rest of the function depends on the chain, so the CPU
 * cannot run the chain beside the function's own work. Without that dependency a chain of a
 * few dozen rounds fits in the CPU's reorder window and disappears when the benchmark runs
 * alone (a planted 20% measured about 0% alone, +15% in duets, where the two processes
 * share the core's execution units).
 */
export function plantGo(
  source: string,
  plant: { head: string; feeds: string },
  rounds: number,
  where: string,
): string {
  const { head, feeds } = plant;
  const at = source.indexOf(head);
  if (at < 0 || source.indexOf(head, at + 1) >= 0)
    throw new Error(`${where}: ${JSON.stringify(head)} found ${at < 0 ? 'nowhere' : 'twice'}`);
  if (!Number.isInteger(rounds) || rounds < 0)
    throw new Error(`${where}: rounds ${rounds}; expected a whole number ≥ 0`);
  if (rounds === 0) return source;
  const end = at + head.length;
  return (
    source.slice(0, end) +
    `\n\t{ // planted by duetkit bench:bisect\n\t\tx := duetkitPlanted\n\t\tfor i := uint32(0); i < ${rounds}; i++ {\n\t\t\tx = x*1103515245 + i\n\t\t}\n\t\tduetkitPlanted = x\n\t\t${feeds} += int(x & duetkitZero)\n\t}` +
    source.slice(end) +
    '\n\n// duetkitPlanted keeps the planted work from being optimised away; duetkitZero stays 0.\nvar duetkitPlanted, duetkitZero uint32\n'
  );
}
