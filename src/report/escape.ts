/**
 * Escaping for text that did not come from duetkit (benchmark names, tool output, error
 * messages) before it goes into GitHub-flavoured markdown. Pure.
 *
 * GitHub renders markdown to HTML and then links `@name` and `#123` in the text nodes, so
 * backslashes or entities alone do not stop a mention: a zero-width space after `@` and `#`
 * does (the same trick Renovate uses).
 */

const ZERO_WIDTH_SPACE = '&#8203;';
/**
 * Inline markdown syntax (emphasis, code, links, images, strikethrough, math, emoji
 * shortcodes and autolinks), `|` for table cells, and `<`, `>`, `&`, quotes for HTML. Text
 * never starts a line, so block syntax (`-`, `+`, `1.`, `=`) needs nothing.
 */
const MARKDOWN_SPECIAL = /[\\`*_{}[\]()#!|~<>&"'$:]/g;
const ENTITIES: Record<string, string> = {
  '<': '&lt;',
  '>': '&gt;',
  '&': '&amp;',
  '"': '&quot;',
  "'": '&#39;',
};
/** Longest text kept in one table cell or list item; the rest is cut with an ellipsis. */
export const MAX_INLINE_LENGTH = 200;

/**
 * One line of plain text that renders literally in a paragraph, list item or table cell:
 * markdown and HTML syntax escaped, line breaks and control characters turned into spaces,
 * mentions and issue references defused, at most `maxLength` characters.
 */
export function escapeInline(text: string, maxLength = MAX_INLINE_LENGTH): string {
  const line = oneLine(text);
  const cut = line.length > maxLength ? `${line.slice(0, maxLength - 1)}…` : line;
  return cut
    .replace(MARKDOWN_SPECIAL, (c) => ENTITIES[c] ?? `\\${c}`)
    .replace(/@(?=\S)/g, `@${ZERO_WIDTH_SPACE}`)
    .replace(/\\#(?=\w)/g, `\\#${ZERO_WIDTH_SPACE}`);
}

/**
 * A fenced code block holding `text` verbatim: the fence is longer than any run of backticks
 * inside, so nothing can close it early. GitHub neither renders markdown nor links mentions
 * inside code, so the text needs no other escaping.
 */
export function codeBlock(text: string, maxLength = 4000): string {
  const body = stripControl(text.length > maxLength ? `${text.slice(0, maxLength)}\n…` : text);
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${body.replace(/\n+$/, '')}\n${fence}`;
}

/**
 * One line of text as an inline code span (function names of a profile, file paths): GitHub
 * renders nothing inside code, so only what could end the span or the line is taken out —
 * backticks become `'`, line breaks, control and bidirectional characters spaces — and it is
 * cut to `maxLength` characters.
 */
export function codeSpan(text: string, maxLength = 120): string {
  const line = oneLine(text).replace(/`/g, "'");
  return `\`${line.length > maxLength ? `${line.slice(0, maxLength - 1)}…` : line}\``;
}

/** A value for an HTML comment (the hidden marker): no `--`, `>` or line breaks. */
export function escapeCommentValue(text: string): string {
  return encodeURIComponent(oneLine(text)).replace(/-/g, '%2D');
}

function oneLine(text: string): string {
  return stripControl(text).replace(/\s+/g, ' ').trim();
}

function stripControl(text: string): string {
  let out = '';
  for (const c of text) {
    const code = c.codePointAt(0)!;
    const control = (code < 0x20 && c !== '\n' && c !== '\t') || (code >= 0x7f && code < 0xa0);
    // Bidirectional overrides can make text read differently from what it is.
    const bidi = (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
    out += control || bidi ? ' ' : c;
  }
  return out;
}
