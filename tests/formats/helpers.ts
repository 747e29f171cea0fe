import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { getFormat } from '../../src/formats/registry.js';
import { FormatError, type FormatContext, type ParsedBenchmark } from '../../src/formats/types.js';

/** Shared by the per-format tests: fixtures, error checks and the fuzz property. */
export const FIXTURES = path.join(process.cwd(), 'tests', 'fixtures', 'formats');

export function fixture(relative: string): string {
  return readFileSync(path.join(FIXTURES, relative), 'utf8');
}

const CONTEXT: FormatContext = { cwd: FIXTURES };

export function parse(format: string, output: string, context = CONTEXT): ParsedBenchmark[] {
  return getFormat(format).parse(output, context);
}

export function byName(list: readonly ParsedBenchmark[], name: string): ParsedBenchmark {
  const found = list.find((b) => b.name === name);
  if (found === undefined)
    throw new Error(`no benchmark "${name}" in ${list.map((b) => b.name).join(', ')}`);
  return found;
}

/** Runs `fn` and returns the FormatError it must throw. */
export function formatError(fn: () => unknown): FormatError {
  try {
    fn();
  } catch (error) {
    if (error instanceof FormatError) return error;
    throw new Error(`expected a FormatError, got ${String(error)}`);
  }
  throw new Error('expected a FormatError, but parsing succeeded');
}

/** Random edits of a real output: truncation, deletion, insertion, numbers made NaN... */
function mutate(text: string): fc.Arbitrary<string> {
  const edit = fc.oneof(
    fc.nat().map((i) => (s: string) => s.slice(0, i % (s.length + 1))),
    fc.tuple(fc.nat(), fc.nat(40)).map(([i, n]) => (s: string) => {
      const at = i % (s.length + 1);
      return s.slice(0, at) + s.slice(at + n);
    }),
    fc.tuple(fc.nat(), fc.string({ maxLength: 12 })).map(([i, ins]) => (s: string) => {
      const at = i % (s.length + 1);
      return s.slice(0, at) + ins + s.slice(at);
    }),
    fc
      .tuple(
        fc.nat(),
        fc.constantFrom('NaN', '-1', '1e999', '', 'null', '"x"', '[]', '{}', 'Infinity'),
      )
      .map(([i, token]) => (s: string) => {
        const numbers = [...s.matchAll(/-?\d+(\.\d+)?(e[-+]?\d+)?/g)];
        const m = numbers[i % Math.max(1, numbers.length)];
        return m === undefined ? s : s.slice(0, m.index) + token + s.slice(m.index + m[0].length);
      }),
    fc.nat().map((i) => (s: string) => {
      const lines = s.split('\n');
      const at = i % lines.length;
      lines.splice(at, 0, lines[at] ?? '');
      return lines.join('\n');
    }),
  );
  return fc
    .array(edit, { minLength: 1, maxLength: 4 })
    .map((edits) => edits.reduce((s, f) => f(s), text));
}

/** Parsing must either succeed with well-formed benchmarks or throw this format's FormatError. */
function check(format: string, output: string, context: FormatContext): void {
  let result: ParsedBenchmark[];
  try {
    result = parse(format, output, context);
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    if (!error.message.startsWith(`${format} output, `)) throw error;
    return;
  }
  if (result.length === 0) throw new Error('empty result without an error');
  for (const b of result) {
    if (b.name === '' || b.values.length === 0 || !b.values.every(Number.isFinite)) {
      throw new Error(`malformed benchmark ${JSON.stringify(b)}`);
    }
  }
}

/** Fuzzes a format with random strings, random JSON and mutations of its real outputs. */
export function fuzz(format: string, realOutputs: readonly string[], context = CONTEXT): void {
  const property = (output: string): void => check(format, output, context);
  fc.assert(fc.property(fc.string({ maxLength: 200 }), property), { numRuns: 200 });
  fc.assert(fc.property(fc.json(), property), { numRuns: 200 });
  for (const real of realOutputs) {
    fc.assert(fc.property(mutate(real), property), { numRuns: 300 });
  }
}
