import { FormatError } from './types.js';

/**
 * Typed access to a tool's JSON with errors that name the JSON path (`$.benchmarks[2].name`),
 * so a parser reads like the format's documentation and never crashes with a TypeError.
 */
export class JsonReader {
  constructor(
    readonly format: string,
    readonly value: unknown,
    readonly path = '$',
  ) {}

  /** Parses `text`; a syntax error (truncated output, an error message) names the line. */
  static parse(format: string, text: string, what: string): JsonReader {
    try {
      return new JsonReader(format, JSON.parse(text));
    } catch (error) {
      const position = errorPosition(String(error), text);
      if (position === undefined || text.trim() === '') {
        throw new FormatError(format, 'the whole output', what, text.trim());
      }
      const before = text.slice(0, position);
      const line = before.split('\n').length;
      const lineText = text.split('\n')[line - 1] ?? '';
      throw new FormatError(format, `line ${line}`, `${what} (invalid JSON)`, lineText.trim());
    }
  }

  private fail(expected: string): never {
    const found = this.value === undefined ? 'nothing' : JSON.stringify(this.value);
    throw new FormatError(this.format, this.path, expected, found ?? String(this.value));
  }

  isObject(): boolean {
    return typeof this.value === 'object' && this.value !== null && !Array.isArray(this.value);
  }

  isArray(): boolean {
    return Array.isArray(this.value);
  }

  has(key: string): boolean {
    return this.isObject() && (this.value as Record<string, unknown>)[key] !== undefined;
  }

  /** The member `key` of this object (errors if this is not an object). */
  get(key: string): JsonReader {
    if (!this.isObject()) this.fail('an object');
    const child = (this.value as Record<string, unknown>)[key];
    return new JsonReader(this.format, child, `${this.path}.${key}`);
  }

  /** The member `key`, or undefined when it is absent or null. */
  optional(key: string): JsonReader | undefined {
    const child = this.get(key);
    return child.value === undefined || child.value === null ? undefined : child;
  }

  /** This object's members, in the document's order. */
  entries(): [string, JsonReader][] {
    if (!this.isObject()) this.fail('an object');
    return Object.keys(this.value as object).map((key) => [key, this.get(key)]);
  }

  items(): JsonReader[] {
    if (!Array.isArray(this.value)) this.fail('an array');
    const list: unknown[] = this.value;
    return list.map((item, i) => new JsonReader(this.format, item, `${this.path}[${i}]`));
  }

  string(): string {
    if (typeof this.value !== 'string') this.fail('a string');
    return this.value;
  }

  nonEmptyString(): string {
    if (typeof this.value !== 'string' || this.value === '') this.fail('a non-empty string');
    return this.value;
  }

  /** A finite number: NaN and Infinity (which some tools print as strings) are errors. */
  number(): number {
    if (typeof this.value !== 'number' || !Number.isFinite(this.value))
      this.fail('a finite number');
    return this.value;
  }

  numbers(): number[] {
    return this.items().map((item) => item.number());
  }

  boolean(): boolean {
    if (typeof this.value !== 'boolean') this.fail('true or false');
    return this.value;
  }
}

/**
 * Where JSON.parse stopped: V8 gives `position N` for most errors, but for an unexpected token
 * (NaN, an error message) only a quoted excerpt, which is looked up in the text.
 */
function errorPosition(message: string, text: string): number | undefined {
  const position = /position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return Number(position);
  const excerpt = /Unexpected token '.+?', (?:\.\.\.)?"(.*?)"(?:\.\.\.)? is not valid JSON/s.exec(
    message,
  )?.[1];
  if (excerpt === undefined || excerpt === '') return undefined;
  const at = text.indexOf(excerpt);
  return at < 0 ? undefined : at;
}
