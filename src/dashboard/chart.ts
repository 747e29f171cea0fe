/// <reference lib="dom" />
import uPlot from 'uplot';
import type { BenchmarkHistory } from './data.js';
import { append, h } from './dom.js';
import {
  formatInterval,
  formatPercent,
  formatTime,
  formatValue,
  VERDICT_COLOURS,
  verdictName,
} from './format.js';

const LINE = '#2563eb';
const BAND = 'rgba(37, 99, 235, 0.16)';
const NO_COMPARISON = '#2563eb';
const AXIS = '#374151';
const GRID = '#e5e7eb';

/**
 * The axes of every dashboard chart: time along x, values up y (`size` px for their labels,
 * formatted by `format`, titled `label` when given).
 */
export function timeAxes(
  format: (value: number) => string,
  size: number,
  label?: string,
): uPlot.Axis[] {
  return [
    { stroke: AXIS, grid: { stroke: GRID } },
    {
      stroke: AXIS,
      grid: { stroke: GRID },
      size,
      values: (_u, ticks) => ticks.map(format),
      ...(label === undefined ? {} : { label }),
    },
  ];
}

/**
 * A benchmark over time in uPlot: the value as a line, its confidence interval as a band, each
 * run a point coloured by its comparison's verdict, a marker above every regression (▼) and
 * improvement (▲), and a tooltip with the commit, time and run link (click pins it, so its
 * links can be followed). Returns the chart and a function that removes it.
 */
export function drawChart(
  container: HTMLElement,
  data: BenchmarkHistory,
): { plot: uPlot; dispose(): void } {
  const x = data.t.map((t) => t / 1000);
  const only = (code: number | null): (number | null)[] =>
    data.v.map((v, i) => (data.k[i] === code ? v : null));
  const points = (stroke: string, size: number): uPlot.Series => ({
    stroke,
    width: 0,
    paths: () => null,
    points: { show: true, size, fill: stroke, stroke },
  });
  const tooltip = h('div', { class: 'tooltip', role: 'status', hidden: true });
  container.append(tooltip);
  const width = (): number => Math.max(280, container.clientWidth);
  const height = (): number => (width() < 500 ? 240 : 360);
  const opts: uPlot.Options = {
    width: width(),
    height: height(),
    // Room above the plot for the ▼ markers.
    padding: [18, 12, null, null],
    cursor: { lock: true, points: { size: 10 } },
    legend: { show: false },
    scales: { x: { time: true } },
    axes: timeAxes((v) => formatValue(v), 70, data.unit),
    series: [
      {},
      { label: 'value', stroke: LINE, width: 1.5, points: { show: false }, spanGaps: true },
      { label: 'CI lower', stroke: 'transparent', points: { show: false }, spanGaps: true },
      { label: 'CI upper', stroke: 'transparent', points: { show: false }, spanGaps: true },
      { label: 'no comparison', ...points(NO_COMPARISON, 5) },
      { label: 'unchanged', ...points(VERDICT_COLOURS.unchanged, 6) },
      { label: 'inconclusive', ...points(VERDICT_COLOURS.inconclusive, 7) },
      { label: 'improvement', ...points(VERDICT_COLOURS.improvement, 9) },
      { label: 'regression', ...points(VERDICT_COLOURS.regression, 9) },
    ],
    bands: [{ series: [3, 2], fill: BAND }],
    hooks: {
      draw: [(u) => drawMarkers(u, data)],
      setCursor: [(u) => showTooltip(u, data, tooltip)],
    },
  };
  const plot = new uPlot(
    opts,
    [
      x,
      data.v,
      data.lo,
      data.hi,
      only(null),
      only(0),
      only(3),
      only(2),
      only(1),
    ] as uPlot.AlignedData,
    container,
  );
  const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: height() }));
  resize.observe(container);
  return {
    plot,
    dispose: () => {
      resize.disconnect();
      plot.destroy();
      tooltip.remove();
    },
  };
}

/** ▼ above a regression, ▲ above an improvement, and a faint line down to the point. */
function drawMarkers(u: uPlot, data: BenchmarkHistory): void {
  const ctx = u.ctx;
  const top = u.bbox.top;
  ctx.save();
  data.k.forEach((k, i) => {
    if (k !== 1 && k !== 2) return;
    const cx = Math.round(u.valToPos(data.t[i]! / 1000, 'x', true));
    const colour = k === 1 ? VERDICT_COLOURS.regression : VERDICT_COLOURS.improvement;
    const s = 6 * devicePixelRatio;
    ctx.fillStyle = colour;
    ctx.strokeStyle = colour;
    ctx.globalAlpha = 0.35;
    ctx.setLineDash([3 * devicePixelRatio, 3 * devicePixelRatio]);
    ctx.beginPath();
    ctx.moveTo(cx, top + s * 1.6);
    ctx.lineTo(cx, top + u.bbox.height);
    ctx.stroke();
    ctx.globalAlpha = 1;
    ctx.setLineDash([]);
    ctx.beginPath();
    if (k === 1) {
      ctx.moveTo(cx - s, top);
      ctx.lineTo(cx + s, top);
      ctx.lineTo(cx, top + s * 1.5);
    } else {
      ctx.moveTo(cx - s, top + s * 1.5);
      ctx.lineTo(cx + s, top + s * 1.5);
      ctx.lineTo(cx, top);
    }
    ctx.closePath();
    ctx.fill();
  });
  ctx.restore();
}

function showTooltip(u: uPlot, data: BenchmarkHistory, tooltip: HTMLElement): void {
  const i = u.cursor.idx;
  if (i === null || i === undefined || u.cursor.left === undefined || u.cursor.left < 0) {
    tooltip.hidden = true;
    return;
  }
  const run = data.runs[i]!;
  const v = data.v[i];
  const lo = data.lo[i];
  const hi = data.hi[i];
  const c = data.c[i];
  const verdict = verdictName(data.k[i]);
  tooltip.replaceChildren();
  append(tooltip, [
    h('div', {}, h('strong', {}, formatTime(run.t)), ' UTC'),
    run.commit === null
      ? null
      : h(
          'div',
          {},
          run.commit.url === null
            ? h('code', {}, run.commit.id.slice(0, 7))
            : h(
                'a',
                { href: run.commit.url, target: '_blank', rel: 'noopener' },
                h('code', {}, run.commit.id.slice(0, 7)),
              ),
          ` ${run.commit.message}`,
        ),
    h(
      'div',
      {},
      data.e[i] !== null && data.e[i] !== undefined
        ? h('span', { class: 'error' }, `failed: ${data.e[i]}`)
        : v === null || v === undefined
          ? '–'
          : `${formatValue(v, data.unit)}${lo === null || hi === null || lo === undefined || hi === undefined ? '' : ` [${formatValue(lo)}, ${formatValue(hi)}]`} (n=${data.n[i]})`,
    ),
    c === null || c === undefined
      ? null
      : h(
          'div',
          {},
          `${formatPercent(c)} ${formatInterval(data.cl[i]!, data.ch[i]!)} `,
          h('span', { class: `badge ${verdict}` }, verdict ?? ''),
          run.base === null ? '' : ` vs ${run.base.slice(0, 7)}`,
        ),
    run.url === null
      ? null
      : h('div', {}, h('a', { href: run.url, target: '_blank', rel: 'noopener' }, 'workflow run')),
  ]);
  tooltip.hidden = false;
  const left = u.over.offsetLeft + u.cursor.left;
  const top = u.over.offsetTop + (u.cursor.top ?? 0);
  const flip = left > u.over.offsetLeft + u.over.clientWidth / 2;
  tooltip.style.left = flip ? '' : `${left + 12}px`;
  tooltip.style.right = flip ? `${(tooltip.parentElement?.clientWidth ?? 0) - left + 12}px` : '';
  tooltip.style.top = `${Math.max(0, top - 20)}px`;
}
