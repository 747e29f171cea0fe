import { PassThrough } from 'node:stream';
import { terminalPrompter } from '../../src/init/prompt.js';

/** A stream that says it is a terminal, as process.stdin and stderr do on one. */
function fakeTerminal(): PassThrough & { isTTY: boolean } {
  return Object.assign(new PassThrough(), { isTTY: true });
}

describe('init: questions on a terminal', () => {
  it('is not there unless both stdin and stderr are terminals', () => {
    const tty = fakeTerminal() as unknown as NodeJS.WriteStream;
    const pipe = new PassThrough() as unknown as NodeJS.ReadStream;
    expect(terminalPrompter(pipe, tty)).toBeNull();
    expect(
      terminalPrompter(tty as unknown as NodeJS.ReadStream, new PassThrough() as never),
    ).toBeNull();
  });

  it('asks again after a wrong answer, keeps lines typed ahead, and fails at the end of input', async () => {
    const input = fakeTerminal();
    const output = fakeTerminal();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const prompter = terminalPrompter(
      input as unknown as NodeJS.ReadStream,
      output as unknown as NodeJS.WriteStream,
    )!;
    input.write('9\n2\nmake bench\n');
    await expect(prompter.choose('Which one?', ['go', 'pytest'])).resolves.toBe(1);
    expect(shown).toContain('Which one?\n  1) go\n  2) pytest\nnumber (1-2): ');
    expect(shown).toContain('"9" is not one of 1-2');
    await expect(prompter.ask('Command: ')).resolves.toBe('make bench');
    const pending = prompter.ask('Again: ');
    input.end();
    await expect(pending).rejects.toThrow('no answer: the input ended');
    prompter.close();
  });
});
