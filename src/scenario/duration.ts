const UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };

/**
 * Reads a duration in seconds: a number (seconds) or a string such as `500ms`, `90s`, `2m`,
 * `1h`. Returns null when the text is not a duration, so the caller can name the field.
 */
export function parseDuration(value: number | string): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value : null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(value);
  if (match === null) return null;
  const seconds = Number(match[1]) * UNITS[match[2] ?? 's']!;
  return seconds > 0 ? seconds : null;
}
