import { readFileSync } from 'node:fs';
import { UserError } from '../errors.js';

/**
 * Reads a file of numbers: either one number per line (blank lines and `#` comments ignored)
 * or a JSON array of numbers. Errors name the file (as `shownAs`), the line (or array index)
 * and the text.
 */
export function readNumberFile(path: string, label: string, shownAs: string = path): number[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : String(code);
    throw new UserError(`cannot read the ${label} file "${shownAs}": ${why}`);
  }
  return parseNumbers(text, shownAs);
}

/** Parses the text of a number file; `origin` names it in errors. */
export function parseNumbers(text: string, origin: string): number[] {
  if (/^\s*[[{]/.test(text)) return parseJsonArray(text, origin);
  const values: number[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const content = line.replace(/#.*/, '').trim();
    if (content === '') return;
    const value = strictNumber(content);
    if (value === undefined) {
      throw new UserError(`${origin}:${i + 1}: "${clip(content)}" is not a number`);
    }
    values.push(value);
  });
  return values;
}

function parseJsonArray(text: string, origin: string): number[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UserError(`${origin}: not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(data)) throw new UserError(`${origin}: expected a JSON array of numbers`);
  return data.map((v: unknown, i) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new UserError(
        `${origin}: element [${i}] is ${JSON.stringify(v)}, expected a finite number`,
      );
    }
    return v;
  });
}

/** A decimal or scientific number and nothing else ("12abc", "0x10", "Infinity" are not). */
function strictNumber(text: string): number | undefined {
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
