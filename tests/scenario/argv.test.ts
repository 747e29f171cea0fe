import { formatArgv, splitArgv } from '../../src/scenario/argv.js';

describe('splitArgv', () => {
  it('splits on whitespace and honours quotes and escapes like a shell', () => {
    expect(splitArgv(`node  bench.js --name 'a b' "c \\"d\\"" e\\ f ''`)).toEqual([
      'node',
      'bench.js',
      '--name',
      'a b',
      'c "d"',
      'e f',
      '',
    ]);
  });

  it('never expands anything', () => {
    expect(splitArgv('echo $HOME *.js `id` ; rm -rf x')).toEqual([
      'echo',
      '$HOME',
      '*.js',
      '`id`',
      ';',
      'rm',
      '-rf',
      'x',
    ]);
  });

  it('rejects an unterminated quote', () => {
    expect(() => splitArgv(`node 'bench.js`)).toThrow(/unterminated ' quote/);
  });

  it('formats an argv that splits back to itself', () => {
    const argv = ['node', 'a b.js', "it's", '$X'];
    expect(splitArgv(formatArgv(argv))).toEqual(argv);
  });
});
