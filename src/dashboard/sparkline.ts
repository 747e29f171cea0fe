/// <reference lib="dom" />
import { svg } from './dom.js';

/**
 * A small inline SVG line of the newest values (nulls are gaps), the last point marked. One
 * path element per row: cheap enough to draw for the rows on screen only.
 */
export function sparkline(
  values: readonly (number | null)[],
  width = 120,
  height = 28,
): SVGElement {
  const root = svg('svg', {
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    class: 'spark',
    'aria-hidden': 'true',
  });
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return root;
  let min = Math.min(...known);
  let max = Math.max(...known);
  if (max === min) {
    max += Math.abs(max) * 0.01 || 1;
    min -= Math.abs(min) * 0.01 || 1;
  }
  const pad = 3;
  const x = (i: number): number =>
    values.length === 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (values.length - 1);
  const y = (v: number): number => height - pad - ((v - min) * (height - 2 * pad)) / (max - min);
  let d = '';
  let pen = false;
  values.forEach((v, i) => {
    if (v === null) {
      pen = false;
      return;
    }
    d += `${pen ? 'L' : 'M'}${x(i).toFixed(1)} ${y(v).toFixed(1)}`;
    pen = true;
  });
  root.appendChild(svg('path', { d, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.5 }));
  const last = values.length - 1;
  const lastValue = values[last];
  if (lastValue !== null && lastValue !== undefined) {
    root.appendChild(
      svg('circle', { cx: x(last), cy: y(lastValue), r: 2.5, fill: 'currentColor' }),
    );
  }
  return root;
}
