/// <reference lib="dom" />
import uPlot from 'uplot';
import type { VariabilityData, VariabilityDataBenchmark } from '../../variability/derive.js';
import { DataError, findSuite, getJson, loadIndex } from '../data.js';
import { timeAxes } from '../chart.js';
import { h } from '../dom.js';
import {
  formatInterval,
  formatPercent,
  formatTime,
  formatValue,
  VERDICT_COLOURS,
} from '../format.js';
import { suiteHref } from '../route.js';
import { matchSuiteTab, registerView, suiteTabs } from './registry.js';
import { notFound, suiteHeader } from './suite-header.js';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/**
 * `#/s/SUITE/variability`: the nightly runs of a suite (docs/variability.md) — per benchmark,
 * its values with the change points on main marked and their commit ranges, CV and MDE over
 * time, and an hour × weekday heatmap. Data: data/<suite>/variability.json, written by the
 * store on every nightly publish (src/variability/derive.ts).
 */
registerView({
  id: 'variability',
  suiteTab: 'Variability',
  match: (route) => matchSuiteTab(route, 'variability'),
  async render({ suite }, ctx) {
    const found = await findSuite(suite);
    if (found === null) return notFound(ctx, `No suite named “${suite}” in this history.`);
    const index = await loadIndex(found.key);
    ctx.setTitle(`Variability · ${suite} · duetkit`);
    ctx.setCrumbs([{ label: suite, href: suiteHref(suite) }, { label: 'variability' }]);
    const head = suiteHeader(index, 'variability', suiteTabs());
    let data: VariabilityData;
    try {
      data = await getJson<VariabilityData>(`data/${found.key}/variability.json`);
    } catch (error) {
      if (!(error instanceof DataError)) throw error;
      ctx.root.replaceChildren(
        head,
        h(
          'p',
          { class: 'empty' },
          'No nightly runs yet: a scheduled workflow with aa: true and publish: history adds them (docs/variability.md).',
        ),
      );
      return;
    }
    const disposers: (() => void)[] = [];
    const body = h('div', { class: 'variability' });
    const changed = data.benchmarks.filter((b) => b.changePoints.length > 0);
    const select = h(
      'select',
      { 'aria-label': 'Benchmark', class: 'bench-select' },
      data.benchmarks.map((b) =>
        h(
          'option',
          { value: b.name },
          `${b.name}${b.changePoints.length > 0 ? ` (${b.changePoints.length} change point${b.changePoints.length > 1 ? 's' : ''})` : ''}`,
        ),
      ),
    );
    const show = (name: string): void => {
      for (const d of disposers.splice(0)) d();
      const b = data.benchmarks.find((x) => x.name === name);
      if (b !== undefined) body.replaceChildren(...benchmarkPanel(b, disposers));
    };
    select.addEventListener('change', () => show(select.value));
    ctx.root.replaceChildren(
      head,
      h(
        'p',
        { class: 'muted' },
        `The newest ${data.runs} runs · ${changed.length} of ${data.benchmarks.length} benchmarks with change points on main · ${aaLine(data)}`,
      ),
      h('label', {}, 'Benchmark ', select),
      body,
    );
    const first = changed[0]?.name ?? data.benchmarks[0]?.name;
    if (first !== undefined) {
      select.value = first;
      show(first);
    }
    return () => {
      for (const d of disposers) d();
    };
  },
});

function aaLine(data: VariabilityData): string {
  const calls = data.benchmarks.flatMap((b) => b.aa.filter((a): a is 0 | 1 => a !== null));
  if (calls.length === 0) return 'no A/A duets';
  const called = calls.filter((a) => a === 1).length;
  return `A/A duets called ${called} of ${calls.length} comparisons changed (${((100 * called) / calls.length).toFixed(1)}%)`;
}

function benchmarkPanel(b: VariabilityDataBenchmark, disposers: (() => void)[]): HTMLElement[] {
  const valueBox = h('div', {
    class: 'chart variability-values',
    'aria-label': `${b.name} with its change points`,
  });
  const noiseBox = h('div', {
    class: 'chart variability-noise',
    'aria-label': `CV and MDE of ${b.name} over time`,
  });
  const panel = [
    h('h2', { class: 'bench-name' }, b.name),
    valueBox,
    h(
      'p',
      { class: 'muted legend' },
      "Line: the value; steps: the median of each segment between change points; vertical lines: change points on main (red: regression, green: improvement); dashed: a step a run's paired duet against its base commit called.",
    ),
    changePointList(b),
    h('h2', {}, 'Noise over time'),
    noiseBox,
    h(
      'p',
      { class: 'muted legend' },
      `Blue: CV between runs over the last 14 runs (steps divided out); orange: the minimum detectable effect at 99% (the A/A duet's when the run had one).`,
    ),
    h('h2', {}, 'Hour × weekday (UTC)'),
    heatmap(b),
  ];
  // the charts need their boxes in the document to measure them
  queueMicrotask(() => {
    disposers.push(valuesChart(valueBox, b), noiseChart(noiseBox, b));
  });
  return panel;
}

function changePointList(b: VariabilityDataBenchmark): HTMLElement {
  const steps = (b.steps ?? []).map((c) =>
    h(
      'li',
      { class: 'paired-step' },
      h(
        'strong',
        { style: `color: ${VERDICT_COLOURS[c.direction]}` },
        `${c.direction} ${formatPercent(c.change)}`,
      ),
      ` ${formatInterval(c.lower, c.upper)} judged within the run of ${formatTime(c.at)} (paired, head against its base) · commits `,
      h('code', {}, `${c.from.slice(0, 7)}..${(c.to ?? '?').slice(0, 7)}`),
    ),
  );
  if (b.changePoints.length === 0 && steps.length === 0)
    return h('p', { class: 'change-points' }, 'No change points on main in these runs.');
  return h('ul', { class: 'change-points' }, [
    ...b.changePoints.map((c) =>
      h(
        'li',
        {},
        h(
          'strong',
          { style: `color: ${VERDICT_COLOURS[c.direction]}` },
          `${c.direction} ${formatPercent(c.change)}`,
        ),
        c.lower === null || c.upper === null ? '' : ` ${formatInterval(c.lower, c.upper)}`,
        ` at ${formatTime(c.at)} · commits `,
        c.compareUrl === null
          ? h('code', {}, `${(c.from ?? '?').slice(0, 7)}..${(c.to ?? '?').slice(0, 7)}`)
          : h(
              'a',
              { href: c.compareUrl },
              h('code', {}, `${(c.from ?? '?').slice(0, 7)}..${(c.to ?? '?').slice(0, 7)}`),
            ),
      ),
    ),
    ...steps,
  ]);
}

function sizeOf(container: HTMLElement): { width: number; height: number } {
  const width = Math.max(280, container.clientWidth);
  return { width, height: width < 500 ? 220 : 300 };
}

function mount(
  container: HTMLElement,
  opts: Omit<uPlot.Options, 'width' | 'height'>,
  data: uPlot.AlignedData,
): () => void {
  const plot = new uPlot({ ...sizeOf(container), ...opts }, data, container);
  const resize = new ResizeObserver(() => plot.setSize(sizeOf(container)));
  resize.observe(container);
  return () => {
    resize.disconnect();
    plot.destroy();
  };
}

function valuesChart(container: HTMLElement, b: VariabilityDataBenchmark): () => void {
  return mount(
    container,
    {
      legend: { show: false },
      scales: { x: { time: true } },
      axes: timeAxes((v) => formatValue(v), 70, b.unit),
      series: [
        {},
        { label: 'value', stroke: '#2563eb', width: 1.5, points: { show: true, size: 4 } },
        {
          label: 'segment median',
          stroke: '#111827',
          width: 2,
          dash: [6, 4],
          points: { show: false },
          paths: uPlot.paths.stepped!({ align: 1 }),
        },
      ],
      hooks: {
        draw: [
          (u) => {
            const ctx = u.ctx;
            ctx.save();
            ctx.lineWidth = 2 * devicePixelRatio;
            const mark = (at: number, colour: string): void => {
              const x = Math.round(u.valToPos(at / 1000, 'x', true));
              ctx.strokeStyle = colour;
              ctx.beginPath();
              ctx.moveTo(x, u.bbox.top);
              ctx.lineTo(x, u.bbox.top + u.bbox.height);
              ctx.stroke();
            };
            for (const c of b.changePoints) mark(c.at, VERDICT_COLOURS[c.direction]);
            ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
            for (const c of b.steps ?? []) mark(c.at, VERDICT_COLOURS[c.direction]);
            ctx.restore();
          },
        ],
      },
    },
    [b.t.map((t) => t / 1000), b.v, b.seg] as uPlot.AlignedData,
  );
}

function noiseChart(container: HTMLElement, b: VariabilityDataBenchmark): () => void {
  return mount(
    container,
    {
      legend: { show: true },
      scales: { x: { time: true } },
      axes: timeAxes((v) => `${(v * 100).toFixed(1)}%`, 60),
      series: [
        {},
        {
          label: 'CV between runs',
          stroke: '#2563eb',
          width: 2,
          spanGaps: false,
          points: { show: false },
        },
        { label: 'MDE (99%)', stroke: '#d97706', width: 1.5, points: { show: true, size: 4 } },
      ],
    },
    [b.t.map((t) => t / 1000), b.cv, b.mde] as uPlot.AlignedData,
  );
}

/** Median relative deviation per UTC hour × weekday, coloured blue (faster) to red (slower). */
function heatmap(b: VariabilityDataBenchmark): HTMLElement {
  const cells = new Map<string, number[]>();
  b.t.forEach((t, i) => {
    const d = new Date(t);
    const key = `${(d.getUTCDay() + 6) % 7}:${d.getUTCHours()}`;
    cells.set(key, [...(cells.get(key) ?? []), b.rel[i]!]);
  });
  const hours = [...new Set(b.t.map((t) => new Date(t).getUTCHours()))].sort((x, y) => x - y);
  const medians = [...cells.values()].map(median);
  const scale = Math.max(1e-9, ...medians.map(Math.abs));
  const worse = (r: number) => (b.biggerIsBetter ? -r : r);
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { class: 'heatmap', 'aria-label': 'Median deviation by weekday and UTC hour' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, ''),
          hours.map((hr) => h('th', {}, `${String(hr).padStart(2, '0')}:00`)),
        ),
      ),
      h(
        'tbody',
        {},
        WEEKDAYS.map((day, wd) =>
          h(
            'tr',
            {},
            h('th', {}, day),
            hours.map((hr) => {
              const values = cells.get(`${wd}:${hr}`);
              if (values === undefined) return h('td', { class: 'empty-cell' }, '');
              const m = median(values);
              const w = worse(m) / scale;
              const colour =
                w >= 0
                  ? `rgba(220, 38, 38, ${(0.12 + 0.6 * w).toFixed(2)})`
                  : `rgba(37, 99, 235, ${(0.12 - 0.6 * w).toFixed(2)})`;
              return h(
                'td',
                {
                  style: `background: ${colour}`,
                  title: `${day} ${hr}:00 UTC: ${values.length} runs, median ${formatPercent(m)}`,
                },
                formatPercent(m),
              );
            }),
          ),
        ),
      ),
    ),
  );
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = (s.length - 1) / 2;
  return (s[Math.floor(mid)]! + s[Math.ceil(mid)]!) / 2;
}
