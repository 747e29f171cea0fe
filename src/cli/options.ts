import { InvalidArgumentError } from 'commander';

/**
 * Parsers for option values shared by commands. Each throws commander's InvalidArgumentError,
 * which commander reports as `error: option '--x <v>' argument 'bad' is invalid. <reason>`.
 */

/** "0.99" or "99%" → 0.99; must lie strictly between 0 and 1. */
export function parseLevel(text: string): number {
  const value = parseFractionOrPercent(text);
  if (value === undefined || !(value > 0 && value < 1)) {
    throw new InvalidArgumentError(
      'Expected a confidence level between 0 and 1, like 0.99 or 99%.',
    );
  }
  return value;
}

/** "5%" or "0.05" → 0.05; ≥ 0. A bare number ≥ 1 is refused as ambiguous. */
export function parseThreshold(text: string): number {
  const value = parseFractionOrPercent(text);
  if (value === undefined || value < 0) {
    throw new InvalidArgumentError('Expected a threshold like 5% or 0.05 (a fraction ≥ 0).');
  }
  if (!text.trim().endsWith('%') && value >= 1) {
    throw new InvalidArgumentError(
      `Ambiguous: write ${text}% for a percentage, or a fraction below 1.`,
    );
  }
  return value;
}

/** A positive integer within [min, max]. */
export function integerParser(min: number, max: number): (text: string) => number {
  return (text) => {
    const value = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
    if (!(Number.isSafeInteger(value) && value >= min && value <= max)) {
      throw new InvalidArgumentError(`Expected an integer from ${min} to ${max}.`);
    }
    return value;
  };
}

/** One of the listed words. */
export function choiceParser<T extends string>(choices: readonly T[]): (text: string) => T {
  return (text) => {
    if (!(choices as readonly string[]).includes(text)) {
      throw new InvalidArgumentError(`Expected one of: ${choices.join(', ')}.`);
    }
    return text as T;
  };
}

function parseFractionOrPercent(text: string): number | undefined {
  const trimmed = text.trim();
  const percent = trimmed.endsWith('%');
  const body = percent ? trimmed.slice(0, -1) : trimmed;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(body)) return undefined;
  const value = Number(body);
  return percent ? value / 100 : value;
}
