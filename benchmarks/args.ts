/** A benchmark script's numeric flag: a positive number, or an error naming flag and value. */
export function positive(flag: string, text: string): number {
  const x = Number(text);
  if (!(x > 0))
    throw new RangeError(`${flag}: got ${JSON.stringify(text)}; expected a positive number`);
  return x;
}

/** A benchmark script's numeric flag from argv (`--suites 400`), or `fallback` when absent. */
export function numberFlag(argv: readonly string[], flag: string, fallback: string): number {
  return Number(stringFlag(argv, flag, fallback));
}

/** A benchmark script's flag from argv as given (`--out file.json`), or `fallback` when absent. */
export function stringFlag(argv: readonly string[], flag: string, fallback: string): string {
  const i = argv.indexOf(flag);
  return i < 0 ? fallback : argv[i + 1]!;
}
