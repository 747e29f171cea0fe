import { Document, isMap, isScalar, isSeq, Scalar, type Node } from 'yaml';

/**
 * Small helpers over the `yaml` package's document model, for files written with comments:
 * a comment above a key, a comment at the end of a value's line, short lists on one line.
 */
export function newDocument(value: unknown, header: readonly string[]): Document {
  // A value used twice (one setup for both versions) is written twice, never as an alias.
  const doc = new Document(value, { aliasDuplicateObjects: false });
  doc.commentBefore = header.map((line) => ` ${line}`.trimEnd()).join('\n');
  return doc;
}

/** The node at `path` (keys and list indices), or throws: the writers only name what they built. */
function nodeAt(doc: Document, path: readonly (string | number)[]): Node {
  const node = doc.getIn(path, true);
  if (node === undefined || node === null || typeof node !== 'object') {
    throw new Error(`no node at ${path.join('.')}`);
  }
  return node as Node;
}

/** Writes `lines` as a comment above the key at the end of `path`. */
export function commentAbove(
  doc: Document,
  path: readonly (string | number)[],
  lines: readonly string[],
): void {
  if (lines.length === 0) return;
  const parent = path.length === 1 ? doc.contents : nodeAt(doc, path.slice(0, -1));
  const key = path[path.length - 1];
  if (!isMap(parent)) throw new Error(`no map at ${path.slice(0, -1).join('.')}`);
  const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === key);
  if (pair === undefined || !isScalar(pair.key)) throw new Error(`no key ${path.join('.')}`);
  pair.key.commentBefore = lines.map((line) => ` ${line}`.trimEnd()).join('\n');
}

/** Writes `text` as a comment after the scalar at `path`, on its line. */
export function commentAfter(
  doc: Document,
  path: readonly (string | number)[],
  text: string,
): void {
  const node = nodeAt(doc, path);
  if (!isScalar(node)) throw new Error(`no scalar at ${path.join('.')}`);
  node.comment = ` ${text}`;
}

/** Writes the list at `path` on one line, its items with spaces double-quoted. */
export function flowList(doc: Document, path: readonly (string | number)[]): void {
  const node = nodeAt(doc, path);
  if (!isSeq(node)) throw new Error(`no list at ${path.join('.')}`);
  node.flow = true;
  for (const item of node.items) {
    if (isScalar(item) && typeof item.value === 'string' && /[\s,[\]{}#'"]/.test(item.value)) {
      item.type = Scalar.QUOTE_DOUBLE;
    }
  }
}

/** The document as text, long lines kept whole (commands must not be folded). */
export function documentText(doc: Document): string {
  return doc.toString({ lineWidth: 0, nullStr: '', flowCollectionPadding: false });
}
