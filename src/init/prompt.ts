import { createInterface } from 'node:readline/promises';
import { UserError } from '../errors.js';

/** Questions `duetkit init` may ask on a terminal; never used when stdin is not one. */
export interface Prompter {
  /** The index of the choice the user picked among `choices`. */
  choose(question: string, choices: readonly string[]): Promise<number>;
  /** A line of text; empty when the user just pressed Enter. */
  ask(question: string): Promise<string>;
}

/**
 * A prompter on the process's terminal, or null when stdin or stderr is not a terminal (a
 * pipe, CI, a test): then init asks nothing and says which option to pass instead.
 */
export function terminalPrompter(
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stderr,
): Prompter | null {
  if (input.isTTY !== true || output.isTTY !== true) return null;
  const question = (text: string): Promise<string> => {
    const rl = createInterface({ input, output });
    return new Promise<string>((resolve, reject) => {
      // End of input (Ctrl-D) closes the interface without an answer.
      rl.once('close', () => reject(new UserError('no answer: the input ended')));
      rl.question(text).then((answer) => resolve(answer.trim()), reject);
    }).finally(() => rl.close());
  };
  return {
    async choose(text, choices) {
      const menu = choices.map((c, i) => `  ${i + 1}) ${c}\n`).join('');
      for (;;) {
        const answer = await question(`${text}\n${menu}number (1-${choices.length}): `);
        const n = Number(answer);
        if (Number.isInteger(n) && n >= 1 && n <= choices.length) return n - 1;
        output.write(`"${answer}" is not one of 1-${choices.length}\n`);
      }
    },
    ask: question,
  };
}
