import { UserError } from '../errors.js';

/**
 * The parsers of the values a user writes in three places — the action's inputs, the CLI's
 * options and the scenario file — so that each place accepts the same forms and says the same
 * thing about a bad one. Pure: no I/O. Each throws a `ValueError` (`got …; expected …`); the
 * place names the field its own way (`Input "threshold": `, `option '--threshold <t>'`,
 * `analysis.threshold: `).
 */

/** A value that does not parse: what was given (as JSON) and what is accepted. */
export class ValueError extends UserError {
  constructor(
    readonly value: unknown,
    readonly expected: string,
  ) {
    super(`got ${JSON.stringify(value)}; expected ${expected}`);
    this.name = 'ValueError';
  }
}

export const THRESHOLD_EXPECTED =
  'a fraction above 0 and below 1 like 0.05, or a percentage above 0% and below 1000% like 5% or 150%';

/**
 * A practical threshold (the smallest change that matters): `0.05` or `5%` → 0.05. A bare
 * number is a fraction in (0, 1); a threshold of 100% or more is written as a percentage
 * (`150%`: a regression can exceed 100%), below 1000%, so a bare `5` is refused rather than
 * read as 500%. 0 is refused: every change would be practically significant. The result lies
 * in (0, 10); `src/stats/compare.ts` checks [0, 10) for callers in code, for which 0 means
 * "any change".
 */
export function parseThreshold(value: string | number): number {
  const fraction = fractionOrPercent(value, 1);
  if (fraction !== null && fraction > 0 && fraction < 10) return fraction;
  throw new ValueError(value, THRESHOLD_EXPECTED);
}

export const THRESHOLD_ITEM_EXPECTED =
  "a threshold like 5%, or KIND=THRESHOLD like memory=5% (kinds: time, memory; or a benchmark's name)";

/** What threshold items give: the run's threshold and thresholds of their own. */
export interface ThresholdItems {
  threshold?: number;
  /** By kind of metric (`time`, `memory`) or a benchmark's full name: `analysis.thresholds`. */
  thresholds?: Record<string, number>;
}

/**
 * One threshold item added to those before it: `5%` (the run's threshold) or `memory=5%`,
 * `time=2%`, `BenchmarkParse=3%` (one kind of metric's, or one benchmark's). The one rule of
 * the CLI's repeated `--threshold` and of the action's `threshold` input.
 */
export function addThresholdItem(text: string, previous: ThresholdItems = {}): ThresholdItems {
  const at = text.lastIndexOf('=');
  const key = at < 0 ? null : text.slice(0, at).trim();
  const value = parseThreshold(at < 0 ? text : text.slice(at + 1));
  if (key === null) return { ...previous, threshold: value };
  if (key === '') throw new ValueError(text, THRESHOLD_ITEM_EXPECTED);
  return { ...previous, thresholds: { ...previous.thresholds, [key]: value } };
}

/**
 * Threshold items in one text, separated by commas or white space (`5%, memory=5%`), as the
 * action's `threshold` input takes them; at least one.
 */
export function parseThresholdItems(text: string): ThresholdItems {
  const items = text.split(/[\s,]+/).filter((item) => item !== '');
  if (items.length === 0) throw new ValueError(text, THRESHOLD_ITEM_EXPECTED);
  return items.reduce<ThresholdItems>((all, item) => addThresholdItem(item, all), {});
}

export const LEVEL_EXPECTED = 'a confidence level above 0 and below 1 like 0.99, or 99%';

/** A confidence level: `0.99` or `99%` → 0.99, in (0, 1). */
export function parseLevel(value: string | number): number {
  const fraction = fractionOrPercent(value, 1);
  if (fraction !== null && fraction > 0 && fraction < 1) return fraction;
  throw new ValueError(value, LEVEL_EXPECTED);
}

export const DURATION_EXPECTED = 'seconds, or a duration like 500ms, 90s, 10m, 1h';

/**
 * A duration (budgets, timeouts, staggers) in seconds: a positive number of seconds, or a
 * number with a unit `ms`, `s`, `m`, `h` (`500ms`, `90s`, `10m`, `1h`).
 */
export function parseSeconds(value: string | number): number {
  const seconds = durationSeconds(value);
  if (seconds !== null) return seconds;
  throw new ValueError(value, DURATION_EXPECTED);
}

const UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };

/**
 * `parseSeconds` without the error, for text that may or may not be a duration (a noise
 * schedule's parts, a budget already checked): the seconds, or null.
 */
export function durationSeconds(value: number | string): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value : null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(value);
  if (match === null) return null;
  const seconds = Number(match[1]) * UNITS[match[2] ?? 's']!;
  return seconds > 0 ? seconds : null;
}

/** How far back a history is read: all of it, the last days, or from a date (UTC). */
export type Since = { all: true } | { days: number } | { date: string };

export const SINCE_EXPECTED = 'all, days or weeks like 90d or 12w, or a date like 2026-01-31';

/** `all`, `90d`, `12w` (days) or a date `2026-01-31` (an ISO date, time optional). */
export function parseSince(value: string): Since {
  const text = value.trim();
  if (text === 'all') return { all: true };
  const m = /^(\d+)\s*([dw])$/.exec(text);
  if (m !== null && Number(m[1]) > 0) return { days: Number(m[1]) * (m[2] === 'w' ? 7 : 1) };
  if (/^\d{4}-\d{2}-\d{2}/.test(text) && !Number.isNaN(Date.parse(text))) {
    return { date: new Date(Date.parse(text)).toISOString() };
  }
  throw new ValueError(value, SINCE_EXPECTED);
}

/** The first moment a `Since` keeps (ISO), or null for all of the history. */
export function sinceStart(since: Since, now: Date): string | null {
  if ('all' in since) return null;
  if ('date' in since) return since.date;
  return new Date(now.getTime() - since.days * 86_400_000).toISOString();
}

/**
 * `5%` → 0.05, `0.05` → 0.05; null for anything else, and for a bare number of `bareLimit` or
 * more (a percentage written without its `%` would otherwise be read as a huge fraction).
 */
function fractionOrPercent(value: string | number, bareLimit: number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value < bareLimit ? value : null;
  const text = value.trim();
  const percent = text.endsWith('%');
  const body = percent ? text.slice(0, -1).trim() : text;
  if (!/^(\d+\.?\d*|\.\d+)$/.test(body)) return null;
  const n = Number(body);
  if (percent) return n / 100;
  return n < bareLimit ? n : null;
}
