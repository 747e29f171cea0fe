import { createInterface, type Interface } from 'node:readline/promises';
import { UserError } from '../errors.js';

/** Questions `duetkit init` may ask on a terminal; never used when stdin is not one. */
export interface Prompter {
  /** The index of the choice the user picked among `choices`. */
  choose(question: string, choices: readonly string[]): Promise<number>;
  /** A line of text; empty when the user just pressed Enter. */
  ask(question: string): Promise<string>;
  /** Lets go of the terminal (an open prompt would keep the process running). */
  close(): void;
}

/**
 * A prompter on the process's terminal, or null when stdin or stderr is not a terminal (a
 * pipe, CI, a test): then init asks nothing and says which option to pass instead. One
 * readline interface serves every question, so lines typed ahead are not lost.
 */
export function terminalPrompter(
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stderr,
): Prompter | null {
  if (input.isTTY !== true || output.isTTY !== true) return null;
  let rl: Interface | null = null;
  let ended = false;
  // Lines typed before their question was asked wait here, in order.
  const typed: string[] = [];
  let waiting: { resolve: (line: string) => void; reject: (error: Error) => void } | null = null;
  const endOfInput = (): UserError => new UserError('no answer: the input ended');
  const open = (): Interface => {
    if (rl !== null) return rl;
    rl = createInterface({ input, output });
    rl.on('line', (line) => {
      const w = waiting;
      waiting = null;
      if (w === null) typed.push(line);
      else w.resolve(line);
    });
    // End of input (Ctrl-D) closes the interface without an answer.
    rl.on('close', () => {
      ended = true;
      const w = waiting;
      waiting = null;
      w?.reject(endOfInput());
    });
    return rl;
  };
  const question = async (text: string): Promise<string> => {
    const current = open();
    current.setPrompt(text);
    current.prompt();
    const early = typed.shift();
    if (early !== undefined) {
      output.write('\n');
      return early.trim();
    }
    if (ended) throw endOfInput();
    const line = await new Promise<string>((resolve, reject) => (waiting = { resolve, reject }));
    return line.trim();
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
    close() {
      ended = true;
      rl?.close();
    },
  };
}
