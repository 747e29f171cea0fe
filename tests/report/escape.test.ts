import { codeBlock, escapeCommentValue, escapeInline } from '../../src/report/escape.js';

describe('escapeInline', () => {
  it('leaves plain names readable', () => {
    expect(escapeInline('BenchmarkSum/n=1000-x.y+z')).toBe('BenchmarkSum/n=1000-x.y+z');
    expect(escapeInline('fib 15')).toBe('fib 15');
  });

  it('defuses HTML, markdown links, emphasis and code', () => {
    expect(escapeInline('<img src=x onerror=alert(1)>')).toBe(
      '&lt;img src=x onerror=alert\\(1\\)&gt;',
    );
    expect(escapeInline('[click](javascript:alert(1))')).toBe(
      '\\[click\\]\\(javascript\\:alert\\(1\\)\\)',
    );
    expect(escapeInline('**bold** _it_ `code` ~~x~~')).toBe(
      '\\*\\*bold\\*\\* \\_it\\_ \\`code\\` \\~\\~x\\~\\~',
    );
    expect(escapeInline('&amp; "q" \'s\'')).toBe('&amp;amp; &quot;q&quot; &#39;s&#39;');
  });

  it('keeps a table row intact: pipes escaped, line breaks flattened', () => {
    expect(escapeInline('a | b\n| c |\r\nd')).toBe('a \\| b \\| c \\| d');
  });

  it('breaks @-mentions and #references with a zero-width space', () => {
    expect(escapeInline('ping @octocat and @org/team')).toBe(
      'ping @&#8203;octocat and @&#8203;org/team',
    );
    expect(escapeInline('fixes #12')).toBe('fixes \\#&#8203;12');
    expect(escapeInline('a @ b')).toBe('a @ b');
  });

  it('drops control and bidirectional override characters, and cuts long text', () => {
    expect(escapeInline('a\u0000b\u202Ec\u0007d')).toBe('a b c d');
    const long = escapeInline('x'.repeat(500));
    expect(long).toBe(`${'x'.repeat(199)}…`);
    expect(escapeInline('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

describe('codeBlock', () => {
  it('uses a fence longer than any backtick run inside', () => {
    expect(codeBlock('plain')).toBe('```text\nplain\n```');
    expect(codeBlock('a ``` b\n````\nc')).toBe('`````text\na ``` b\n````\nc\n`````');
  });

  it('cuts very long output and drops control characters', () => {
    expect(codeBlock('x'.repeat(20), 5)).toBe('```text\nxxxxx\n…\n```');
    expect(codeBlock('a\u001b[31mred')).toBe('```text\na [31mred\n```');
  });
});

describe('escapeCommentValue', () => {
  it('cannot end the HTML comment it sits in', () => {
    const value = escapeCommentValue('x --> <script> \n y');
    expect(value).not.toMatch(/--|>|\n/);
    expect(decodeURIComponent(value)).toBe('x --> <script> y');
  });
});
