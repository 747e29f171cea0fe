import type { Explain } from '../contracts/explain.js';
import type { FlameNode } from './flame-tree.js';

const WIDTH = 1200;
const FRAME = 17;
const CHAR = 6.6; // px per character of 11px monospace
const MIN_WIDTH = 0.5; // px: narrower frames are not drawn (and neither are their children)

/**
 * The differential flame graph of one benchmark as a self-contained HTML page (inline SVG and
 * CSS, no script, nothing fetched): frames as head sampled them, the width of each its head
 * samples, its colour the change of its share of the samples from base to head — red where head
 * spends more, blue where it spends less, the deeper the larger the change (Gregg's
 * differential flame graphs). Frames only base has are not drawn (their width in head is 0);
 * the table above lists every function beyond noise either way. Hovering a frame shows its
 * shares and samples. Pure: returns the page.
 */
export function renderFlameGraph(benchmark: string, tree: FlameNode, explain: Explain): string {
  const frames: string[] = [];
  const nb = Math.max(1, tree.base);
  const nh = Math.max(1, tree.head);
  let maxDelta = 0;
  let depth = 0;
  const walk = (node: FlameNode, level: number, visit: (n: FlameNode, l: number) => void): void => {
    if ((node.head / nh) * WIDTH < MIN_WIDTH) return;
    visit(node, level);
    for (const child of node.children) walk(child, level + 1, visit);
  };
  walk(tree, 0, (n, l) => {
    maxDelta = Math.max(maxDelta, Math.abs(n.head / nh - n.base / nb));
    depth = Math.max(depth, l);
  });
  const height = (depth + 1) * FRAME;
  const place = (node: FlameNode, level: number, x: number): void => {
    const w = (node.head / nh) * WIDTH;
    if (w < MIN_WIDTH) return;
    const y = height - (level + 1) * FRAME;
    const delta = node.head / nh - node.base / nb;
    const title =
      `${node.name}\nhead: ${pct(node.head / nh)} (${node.head} samples)\n` +
      `base: ${pct(node.base / nb)} (${node.base} samples)\nchange: ${pp(delta)}`;
    const label = w >= 4 * CHAR ? fit(node.name, Math.floor((w - 4) / CHAR)) : '';
    frames.push(
      `<g><title>${xml(title)}</title><rect x="${x.toFixed(2)}" y="${y}" width="${w.toFixed(2)}" height="${FRAME - 1}" fill="${colour(delta, maxDelta)}"/>` +
        (label === ''
          ? ''
          : `<text x="${(x + 3).toFixed(2)}" y="${y + FRAME - 5}">${xml(label)}</text>`) +
        '</g>',
    );
    let cx = x;
    for (const child of node.children) {
      place(child, level + 1, cx);
      cx += (child.head / nh) * WIDTH;
    }
  };
  place(tree, 0, 0);
  const called = explain.functions.filter((f) => f.beyondNoise);
  const rows = called
    .map(
      (f) =>
        `<tr><td><code>${xml(f.name)}</code></td><td>${f.kind}</td><td>${pct(f.base)}</td><td>${pct(f.head)}</td>` +
        `<td class="${f.contribution > 0 ? 'more' : 'less'}">${ofBase(f.contribution)}</td>` +
        `<td>[${ofBase(f.contributionLower ?? NaN)}, ${ofBase(f.contributionUpper ?? NaN)}]</td></tr>`,
    )
    .join('\n');
  const m = explain.method;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${xml(benchmark)}: differential flame graph (duetkit)</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 16px; color: #222; }
svg text { font: 11px ui-monospace, monospace; fill: #000; pointer-events: none; }
svg rect { stroke: #fff; stroke-width: 0.5; }
svg g:hover rect { stroke: #000; }
table { border-collapse: collapse; margin: 8px 0 16px; }
td, th { padding: 2px 10px; border-bottom: 1px solid #ddd; text-align: right; }
td:first-child, th:first-child { text-align: left; }
.more { color: #b00; } .less { color: #04b; }
.key span { display: inline-block; width: 12px; height: 12px; vertical-align: middle; margin: 0 4px 0 12px; }
</style>
</head>
<body>
<h1>${xml(benchmark)}</h1>
<p>Differential profile (${xml(explain.profiler ?? 'no profiler')}): ${explain.samples.base} samples of base, ${explain.samples.head} of head.
Width: head's samples. <span class="key"><span style="background:${colour(1, 1)}"></span>more in head<span style="background:${colour(-1, 1)}"></span>less in head<span style="background:${colour(0, 1)}"></span>no change</span></p>
${
  called.length === 0
    ? '<p>No function’s contribution beyond noise.</p>'
    : `<table>
<tr><th>function</th><th>kind</th><th>base share</th><th>head share</th><th>contribution (of base time)</th><th>${m === null ? '' : `${+(m.familyLevel * 100).toFixed(3)}% interval (all together)`}</th></tr>
${rows}
</table>`
}
<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="differential flame graph">
${frames.join('\n')}
</svg>
</body>
</html>
`;
}

/** Red for more in head, blue for less, the stronger the larger the change; beige for none. */
function colour(delta: number, maxDelta: number): string {
  if (maxDelta <= 0 || Math.abs(delta) < 1e-4) return 'rgb(235,225,205)';
  const k = Math.min(1, Math.abs(delta) / maxDelta);
  const low = Math.round(220 - 170 * k);
  return delta > 0 ? `rgb(255,${low},${low})` : `rgb(${low},${low},255)`;
}

function fit(name: string, chars: number): string {
  if (name.length <= chars) return name;
  return chars < 3 ? '' : `${name.slice(0, chars - 2)}..`;
}

function pct(share: number): string {
  return `${(share * 100).toFixed(2)}%`;
}

/** A contribution, a fraction of base's time: "+4.40%"; "–" when unknown (early blocks). */
function ofBase(x: number): string {
  if (!Number.isFinite(x)) return '–';
  return `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(2)}%`;
}

/** "+5.70 pp"; three decimals when two would show a non-zero change as 0.00. */
function pp(change: number): string {
  const abs = Math.abs(change * 100);
  return `${change >= 0 ? '+' : '−'}${abs.toFixed(abs !== 0 && abs < 0.005 ? 3 : 2)} pp`;
}

function xml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
