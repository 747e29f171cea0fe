import type { Explain, ExplainFunction } from '../contracts/explain.js';

/** The functions reports list under a called benchmark's row. */
export const TOP_FUNCTIONS = 3;

/** A change of share in percentage points: 0.057 → "+5.7 pp". */
export function formatPp(change: number, digits = 1): string {
  const text = Math.abs(change * 100).toFixed(digits);
  if (Number(text) === 0) return `${(0).toFixed(digits)} pp`;
  return `${change > 0 ? '+' : '−'}${text} pp`;
}

/** A contribution, a fraction of base's time: 0.044 → "+4.4%". */
export function formatShare(x: number, digits = 1): string {
  const text = Math.abs(x * 100).toFixed(digits);
  if (Number(text) === 0) return `${(0).toFixed(digits)}%`;
  return `${x > 0 ? '+' : '−'}${text}%`;
}

/**
 * One function of a differential: "checksum self +4.4% of base time [+1.0, +7.8]
 * (share 65.5% → 66.3%)", what it added to the time per unit of work with the interval the
 * call rests on; a block written before contributions had intervals gives the change of share,
 * "checksum_loop self +5.7 pp [+5.1, +6.3]". `name` formats the function's name (the markdown
 * renderer escapes it and sets it in code). Pure.
 */
export function functionText(f: ExplainFunction, name = (n: string) => n): string {
  // A bound that rounds to 0 at one decimal gets two, so that "[0.0, …]" never hides its sign.
  const digits = (x: number): number => (x !== 0 && Math.abs(x) < 0.0005 ? 2 : 1);
  if (f.contributionLower === undefined || f.contributionUpper === undefined) {
    const bound = (x: number): string => formatPp(x, digits(x)).replace(' pp', '');
    return `${name(f.name)} ${f.kind} ${formatPp(f.change)} [${bound(f.lower)}, ${bound(f.upper)}]`;
  }
  const bound = (x: number): string => formatShare(x, digits(x)).replace('%', '');
  const share = (x: number): string => `${(x * 100).toFixed(1)}%`;
  return (
    `${name(f.name)} ${f.kind} ${formatShare(f.contribution)} of base time ` +
    `[${bound(f.contributionLower)}, ${bound(f.contributionUpper)}] ` +
    `(share ${share(f.base)} → ${share(f.head)})`
  );
}

/**
 * A total row holding at least this share on both sides is the program's entry (`main`,
 * `_start`): its contribution is the whole change and says nothing of where it went.
 */
export const ENTRY_SHARE = 0.9;

/**
 * The functions beyond noise a report lists, in the differential's order, without the
 * program's entry points (total rows at ENTRY_SHARE or more on both sides; comparison.json
 * keeps them).
 */
export function listedFunctions(explain: Explain, top = TOP_FUNCTIONS): ExplainFunction[] {
  const entry = (f: ExplainFunction) =>
    f.kind === 'total' && Math.min(f.base, f.head) >= ENTRY_SHARE;
  return explain.functions.filter((f) => f.beyondNoise && !entry(f)).slice(0, top);
}

/** What "base time" is when it is not the benchmark's own (no colon or quote: the comment escapes them). */
const BASE_TIME: Record<NonNullable<Explain['timeRatioSource']>, string> = {
  measured: '',
  command: '; base time = the whole command',
  profile: '; time ratio from the profiles',
};

/**
 * What the profiles were: "perf, 40000 base / 42000 head samples, 3.2 s profiling; base time:
 * the whole command's", or the warning when there is no differential. Pure.
 */
export function explainHeader(explain: Explain): string {
  if (explain.method === null) return `no profile: ${explain.warning ?? 'unknown reason'}`;
  const s = explain.samples;
  const source =
    explain.timeRatioInterval === undefined || explain.timeRatioSource === null
      ? ''
      : BASE_TIME[explain.timeRatioSource];
  return `${explain.profiler ?? 'profile'}, ${s.base} base / ${s.head} head samples, ${explain.seconds.toFixed(1)} s profiling${source}`;
}

/** Said when a differential has nothing beyond noise: the family level and the minimum size. */
export function nothingBeyondNoise(explain: Explain): string {
  const m = explain.method!;
  const together = `${m.tests} tested, ${+(m.familyLevel * 100).toFixed(3)}% together`;
  if (explain.timeRatioInterval === undefined) {
    return `no function's share changed beyond noise (${together}, at least ${formatPp(m.minChange).replace('+', '')})`;
  }
  return `no function's contribution beyond noise (${together}, at least ${formatShare(m.minChange).replace('+', '')} of base time)`;
}
