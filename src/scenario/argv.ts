/**
 * Splits a command line the way a POSIX shell splits words — single quotes, double quotes and
 * backslash escapes — but with no expansion of any kind: `$HOME`, `*` and `;` stay literal
 * text, and the result is run directly, never handed to a shell.
 */
export function splitArgv(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1]!)) {
        word += line[++i];
      } else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\') {
      if (i + 1 < line.length) word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote !== null) {
    throw new SyntaxError(`unterminated ${quote} quote in command: ${line}`);
  }
  if (inWord) words.push(word);
  return words;
}

/** Shows an argv so that `splitArgv` would read it back unchanged (for messages and reports). */
export function formatArgv(argv: readonly string[]): string {
  return argv
    .map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}
