import { FormatError, type BenchmarkFormat, type ParsedBenchmark } from './types.js';

/**
 * k6 (Grafana's load tester), either of its machine-readable outputs:
 *
 * - the **summary export** (`k6 run --summary-export summary.json`, or the `data` a
 *   `handleSummary` writes as JSON): every statistic of `http_req_duration` (and of its
 *   sub-metrics such as `http_req_duration{name:GET /items}`, and of the script's own trends)
 *   as a metric of its own, `http_req_duration p(99)` in ms, plus `http_reqs rate` (req/s);
 * - the **NDJSON metric stream** (`k6 run --out json=metrics.ndjson`): every
 *   `http_req_duration` point as a raw sample, overall and per `name` tag.
 *
 * k6's timing internals (`http_req_blocked`, `…_connecting`, `…_sending`, `…_waiting`,
 * `…_receiving`, `…_tls_handshaking`) and `iteration_duration` are left out: they are parts of
 * `http_req_duration` or include the script's own sleeps. Failed requests
 * (`http_req_failed`) or failed checks make the output an error, naming how many: a run
 * that failed must not pass as a measurement.
 */
export const k6: BenchmarkFormat = {
  name: 'k6',
  description: 'k6 --summary-export JSON, handleSummary JSON, or the --out json NDJSON stream',
  reads: 'stdout',
  parse(output) {
    const text = output.trim();
    if (text.startsWith('{') && isStream(text)) return parseStream(text);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new FormatError(
        'k6',
        'the whole output',
        'the JSON of --summary-export (or handleSummary), or the NDJSON of --out json',
        text,
      );
    }
    return parseSummary(json);
  },
  detect(output) {
    const text = output.trimStart();
    if (
      /^\{"type":"(Metric|Point)"/.test(text) ||
      /^\{"metric":"[^"]+","type":"Point"/.test(text)
    ) {
      return true;
    }
    return /"http_req_duration"\s*:/.test(text) && /"root_group"\s*:/.test(text);
  },
};

const INTERNAL = new Set([
  'http_req_blocked',
  'http_req_connecting',
  'http_req_sending',
  'http_req_waiting',
  'http_req_receiving',
  'http_req_tls_handshaking',
  'iteration_duration',
  'group_duration',
]);

/** The trend statistics k6 writes, in the order reports list them. */
const STAT_ORDER = ['min', 'med', 'avg', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)', 'max'];

function isStream(text: string): boolean {
  const firstLine = text.split('\n', 1)[0]!;
  return /"type"\s*:\s*"(Metric|Point)"/.test(firstLine);
}

function parseSummary(json: unknown): ParsedBenchmark[] {
  const metrics = (json as { metrics?: unknown })?.metrics;
  if (metrics === null || typeof metrics !== 'object') {
    throw new FormatError('k6', 'the top level', 'an object with "metrics" (k6 --summary-export)');
  }
  const entries = Object.entries(metrics as Record<string, Record<string, unknown>>);
  const stats = (m: Record<string, unknown>): Record<string, unknown> =>
    m.values !== null && typeof m.values === 'object' ? (m.values as Record<string, unknown>) : m;
  checkFailures(
    entries.find(([name]) => name === 'http_req_failed')?.[1],
    entries.find(([name]) => name === 'checks')?.[1],
    stats,
  );
  const out: ParsedBenchmark[] = [];
  for (const [name, metric] of entries) {
    const base = name.replace(/\{.*\}$/, '');
    // {expected_response:true} repeats the whole metric when nothing failed (and failures fail).
    if (INTERNAL.has(base) || name.includes('{expected_response:')) continue;
    const values = stats(metric);
    const isTrend = 'med' in values && 'avg' in values;
    if (isTrend && (base === 'http_req_duration' || isCustomTrend(base, metric))) {
      const ordered = [
        ...STAT_ORDER.filter((s) => s in values),
        ...Object.keys(values).filter((s) => !STAT_ORDER.includes(s)),
      ];
      for (const stat of ordered) {
        if (stat === 'min' || stat === 'max') continue; // extremes: one request each, not a statistic to compare
        const value = values[stat];
        if (typeof value !== 'number' || !Number.isFinite(value)) {
          throw new FormatError(
            'k6',
            `metrics["${name}"]["${stat}"]`,
            'a finite number',
            String(value),
          );
        }
        out.push({
          name: `${name} ${stat}`,
          unit: 'ms',
          biggerIsBetter: false,
          values: [value],
          valueKind: 'summary',
        });
      }
    } else if (name === 'http_reqs' && typeof values.rate === 'number') {
      out.push({
        name: 'http_reqs rate',
        unit: 'req/s',
        biggerIsBetter: true,
        values: [values.rate],
        valueKind: 'summary',
      });
    }
  }
  if (out.length === 0) {
    throw new FormatError(
      'k6',
      'metrics',
      'http_req_duration (did the script make HTTP requests?)',
    );
  }
  return out;
}

/** A trend the script defined itself (k6's own are named above or start with `http_`). */
function isCustomTrend(name: string, metric: Record<string, unknown>): boolean {
  if (name.startsWith('http_') || INTERNAL.has(name)) return false;
  return metric.type === undefined || metric.type === 'trend';
}

function checkFailures(
  failed: Record<string, unknown> | undefined,
  checks: Record<string, unknown> | undefined,
  stats: (m: Record<string, unknown>) => Record<string, unknown>,
): void {
  if (failed !== undefined) {
    // A rate metric counts "true" values as passes: for http_req_failed, the failed requests.
    const f = stats(failed);
    const bad = Number(f.passes ?? 0);
    if (bad > 0) {
      const total = bad + Number(f.fails ?? 0);
      throw new FormatError(
        'k6',
        'metrics["http_req_failed"]',
        'no failed requests',
        `${bad} of ${total} requests failed`,
      );
    }
  }
  if (checks !== undefined) {
    const c = stats(checks);
    const fails = Number(c.fails ?? 0);
    if (fails > 0) {
      throw new FormatError(
        'k6',
        'metrics["checks"]',
        'no failed checks',
        `${fails} of ${fails + Number(c.passes ?? 0)} checks failed`,
      );
    }
  }
}

function parseStream(text: string): ParsedBenchmark[] {
  const byName = new Map<string, number[]>();
  let failed = 0;
  let requests = 0;
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let record: {
      type?: string;
      metric?: string;
      data?: { value?: unknown; tags?: Record<string, string> };
    };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      throw new FormatError('k6', `line ${i + 1}`, 'a JSON object (k6 --out json)', line);
    }
    if (record.type !== 'Point') return;
    const value = record.data?.value;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new FormatError('k6', `line ${i + 1}, data.value`, 'a finite number', line);
    }
    if (record.metric === 'http_req_failed') {
      requests++;
      if (value !== 0) failed++;
    }
    if (record.metric !== 'http_req_duration') return;
    const add = (name: string): void => {
      const list = byName.get(name) ?? [];
      list.push(value);
      byName.set(name, list);
    };
    add('http_req_duration');
    const tag = record.data?.tags?.name;
    if (tag !== undefined && tag !== '') add(`http_req_duration{name:${tag}}`);
  });
  if (failed > 0) {
    throw new FormatError(
      'k6',
      'the http_req_failed points',
      'no failed requests',
      `${failed} of ${requests} requests failed`,
    );
  }
  if (byName.size === 0) {
    throw new FormatError(
      'k6',
      'the NDJSON stream',
      'http_req_duration points (did the script make HTTP requests?)',
    );
  }
  // One name tag only: the per-name series is the same as the overall one.
  if (byName.size === 2)
    for (const name of [...byName.keys()]) if (name.includes('{')) byName.delete(name);
  return [...byName].map(([name, values]) => ({
    name,
    unit: 'ms',
    biggerIsBetter: false,
    values,
    valueKind: 'samples',
  }));
}
