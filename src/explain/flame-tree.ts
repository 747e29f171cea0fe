import type { ProfileSide } from '../contracts/profile.js';

/** A frame of the merged call tree of base and head: samples under it on each side. */
export interface FlameNode {
  name: string;
  base: number;
  head: number;
  children: FlameNode[];
}

/**
 * Base and head merged into one call tree under a root `all`, children in name order (the
 * flame graph's x order, as in Gregg's flamegraph.pl). Cost O(frames).
 */
export function mergeTree(base: ProfileSide, head: ProfileSide): FlameNode {
  const root: MutableNode = { name: 'all', base: 0, head: 0, children: new Map() };
  for (const [side, key] of [
    [base, 'base'],
    [head, 'head'],
  ] as const) {
    for (const chunk of side.chunks) {
      for (const stack of chunk.stacks) {
        let node = root;
        node[key] += stack.count;
        for (const frame of stack.frames) {
          let child = node.children.get(frame);
          if (child === undefined) {
            child = { name: frame, base: 0, head: 0, children: new Map() };
            node.children.set(frame, child);
          }
          child[key] += stack.count;
          node = child;
        }
      }
    }
  }
  return freeze(root);
}

interface MutableNode {
  name: string;
  base: number;
  head: number;
  children: Map<string, MutableNode>;
}

function freeze(node: MutableNode): FlameNode {
  const children = [...node.children.values()]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(freeze);
  return { name: node.name, base: node.base, head: node.head, children };
}
