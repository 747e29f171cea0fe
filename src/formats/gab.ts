import { z } from 'zod';
import { FileFormatError } from '../errors.js';
import type { Comparison, NotComparable } from '../stats/types.js';

/**
 * github-action-benchmark's formats, in one place: its custom JSON (`[{name, unit, value,
 * range?, extra?}]`, one file per direction) and its history, `data.js`:
 * `window.BENCHMARK_DATA = ` and a JSON object `{lastUpdate, repoUrl, entries: {NAME: [{commit,
 * date, tool, benches: [{name, value, range?, unit, extra?}]}]}}`, one array per benchmark set
 * (its `name` input), oldest first. The types, the parser and the writers; what they become in
 * duetkit's history is `src/history/gab-entry.ts`, and reading the custom JSON as a benchmark
 * tool's output is `src/formats/custom.ts`.
 */
export const GAB_PREFIX = 'window.BENCHMARK_DATA = ';

/** Every tool github-action-benchmark supports, and whether bigger is better for it. */
export const GAB_TOOLS: Record<string, boolean> = {
  cargo: false,
  go: false,
  benchmarkjs: true,
  benchmarkluau: false,
  pytest: true,
  googlecpp: false,
  catch2: false,
  julia: false,
  jmh: false,
  benchmarkdotnet: false,
  customBiggerIsBetter: true,
  customSmallerIsBetter: false,
};

const bench = z.looseObject({
  name: z.string().min(1),
  value: z.number().refine(Number.isFinite, 'a finite number'),
  range: z.union([z.string(), z.number()]).optional(),
  unit: z.string(),
  extra: z.string().optional(),
});
const gabEntry = z.looseObject({
  commit: z.looseObject({
    id: z.string().min(1),
    message: z.string().optional(),
    timestamp: z.string().optional(),
    url: z.string().optional(),
  }),
  date: z.number().refine(Number.isFinite, 'a finite number'),
  tool: z.string().refine((t) => t in GAB_TOOLS, `one of ${Object.keys(GAB_TOOLS).join(', ')}`),
  benches: z.array(bench),
});
const dataSchema = z.looseObject({
  lastUpdate: z.number().optional(),
  repoUrl: z.string().optional(),
  entries: z.record(z.string(), z.array(gabEntry)),
});

/** One benchmark's value: an item of the custom JSON, and of a data.js entry's `benches`. */
export type GabBench = z.infer<typeof bench>;
/** One run of a data.js benchmark set: its commit, date, tool and benches. */
export type GabEntry = z.infer<typeof gabEntry>;
export type GabData = z.infer<typeof dataSchema>;

/** Both custom files: github-action-benchmark takes one direction per file (`tool:` input). */
export interface GabExport {
  customSmallerIsBetter: GabBench[];
  customBiggerIsBetter: GabBench[];
}

/** Parses a data.js (or the same JSON without the prefix); errors name the file and field. */
export function parseGabData(text: string, file: string): GabData {
  let body = text.trim();
  const prefix = /^window\.BENCHMARK_DATA\s*=\s*/.exec(body);
  if (prefix !== null) body = body.slice(prefix[0].length).replace(/;\s*$/, '');
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch (error) {
    throw new FileFormatError(
      file,
      '',
      `not a github-action-benchmark data.js (${(error as Error).message})`,
    );
  }
  const parsed = dataSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new FileFormatError(file, issue.path.join('.'), issue.message);
  }
  // The input as it was (zod would put the fields it knows first): an export reproduces it.
  return raw as GabData;
}

/** The data.js text, as github-action-benchmark writes it. */
export function renderGabData(data: {
  lastUpdate: number;
  repoUrl: string;
  entries: Record<string, GabEntry[]>;
}): string {
  return GAB_PREFIX + JSON.stringify(data, null, 2);
}

export interface NamedComparison {
  name: string;
  unit: string;
  comparison: Comparison;
}

/** A benchmark measured on both sides whose values form no relative change. */
export interface NamedNotComparable {
  name: string;
  unit: string;
  notComparable: NotComparable;
  biggerIsBetter: boolean;
}

function round(value: number): number {
  return Number(value.toPrecision(6));
}

function percent(fraction: number): string {
  const sign = fraction > 0 ? '+' : '';
  return `${sign}${(fraction * 100).toFixed(2)}%`;
}

/** A side's value of the statistic the comparison used (gmean falls back to the median). */
function sideValue(c: Comparison | NotComparable, side: 'base' | 'head'): number {
  const summary = c[side];
  if (c.statistic === 'mean') return summary.mean;
  if (c.statistic === 'gmean') return summary.gmean ?? summary.median;
  return summary.median;
}

/**
 * Turns comparisons into github-action-benchmark custom JSON, so its `data.js` history and
 * dashboard keep working. `value` is the head version's statistic, `range` its standard
 * deviation, and `extra` says how the verdict was obtained (change, CI, n, seed). A benchmark
 * that is not comparable still has a head value: it is exported, `extra` saying why it has no
 * change. Pure.
 */
export function toGab(results: readonly (NamedComparison | NamedNotComparable)[]): GabExport {
  const out: GabExport = { customSmallerIsBetter: [], customBiggerIsBetter: [] };
  for (const r of results) {
    const compared = 'comparison' in r;
    const entry = compared ? comparedEntry(r) : notComparableEntry(r);
    const bigger = compared ? r.comparison.biggerIsBetter : r.biggerIsBetter;
    (bigger ? out.customBiggerIsBetter : out.customSmallerIsBetter).push(entry);
  }
  return out;
}

function comparedEntry({ name, unit, comparison: c }: NamedComparison): GabBench {
  return {
    name,
    unit,
    value: round(sideValue(c, 'head')),
    range: `± ${round(c.head.sd)}`,
    extra: [
      `change: ${percent(c.change)} (${c.ci.level * 100}% CI ${percent(c.ci.lower)} to ${percent(c.ci.upper)}, ${c.ci.method}, ${c.ci.resamples} resamples, seed ${c.ci.seed})`,
      `verdict: ${c.verdict} (threshold ${percent(c.threshold)})`,
      `n: base ${c.n.base}, head ${c.n.head}${c.paired ? ' (paired)' : ''}; statistic: ${c.statistic}`,
      `base: ${round(sideValue(c, 'base'))} ${unit}`,
    ].join('\n'),
  };
}

function notComparableEntry({ name, unit, notComparable: n }: NamedNotComparable): GabBench {
  return {
    name,
    unit,
    value: round(sideValue(n, 'head')),
    range: `± ${round(n.head.sd)}`,
    extra: [
      `change: not comparable (${n.reason})`,
      `n: base ${n.base.n}, head ${n.head.n}; statistic: ${n.statistic}`,
      `base: ${round(sideValue(n, 'base'))} ${unit}`,
    ].join('\n'),
  };
}
