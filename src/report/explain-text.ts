import type { Explain, ExplainFunction } from '../contracts/explain.js';

/** The functions reports list under a called benchmark's row. */
export const TOP_FUNCTIONS = 3;

/** A change of share in percentage points: 0.057 → "+5.7 pp". */
export function formatPp(change: number, digits = 1): string {
  const text = Math.abs(change * 100).toFixed(digits);
  if (Number(text) === 0) return `${(0).toFixed(digits)} pp`;
  return `${change > 0 ? '+' : '−'}${text} pp`;
}

/**
 * One function of a differential: "checksum_loop self +5.7 pp [+5.1, +6.3]". `name` formats
 * the function's name (the markdown renderer escapes it and sets it in code). Pure.
 */
export function functionText(f: ExplainFunction, name = (n: string) => n): string {
  // A bound that rounds to 0 at one decimal gets two, so that "[0.0, …]" never hides its sign.
  const bound = (x: number): string =>
    formatPp(x, x !== 0 && Math.abs(x) < 0.0005 ? 2 : 1).replace(' pp', '');
  return `${name(f.name)} ${f.kind} ${formatPp(f.change)} [${bound(f.lower)}, ${bound(f.upper)}]`;
}

/** The functions beyond noise a report lists, in the differential's order. */
export function listedFunctions(explain: Explain, top = TOP_FUNCTIONS): ExplainFunction[] {
  return explain.functions.filter((f) => f.beyondNoise).slice(0, top);
}

/**
 * What the profiles were: "perf, 40000 base / 42000 head samples, 3.2 s profiling", or the
 * warning when there is no differential. Pure.
 */
export function explainHeader(explain: Explain): string {
  if (explain.method === null) return `no profile: ${explain.warning ?? 'unknown reason'}`;
  const s = explain.samples;
  return `${explain.profiler ?? 'profile'}, ${s.base} base / ${s.head} head samples, ${explain.seconds.toFixed(1)} s profiling`;
}

/** Said when a differential has nothing beyond noise: the family level and the minimum size. */
export function nothingBeyondNoise(explain: Explain): string {
  const m = explain.method!;
  return `no function's share changed beyond noise (${m.tests} tested, ${+(m.familyLevel * 100).toFixed(3)}% together, at least ${formatPp(m.minChange).replace('+', '')})`;
}
