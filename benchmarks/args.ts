/** A benchmark script's numeric flag: a positive number, or an error naming flag and value. */
export function positive(flag: string, text: string): number {
  const x = Number(text);
  if (!(x > 0))
    throw new RangeError(`${flag}: got ${JSON.stringify(text)}; expected a positive number`);
  return x;
}
