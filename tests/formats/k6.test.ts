import { readFileSync } from 'node:fs';
import path from 'node:path';
import { detectFormat, parseOutput } from '../../src/formats/registry.js';

const fixture = (name: string) =>
  readFileSync(path.join('tests/fixtures/formats/k6', name), 'utf8');

describe('k6 (real output of k6 v1.8.1)', () => {
  it('summary export: each statistic of http_req_duration, and the request rate', () => {
    const parsed = parseOutput('k6', fixture('summary.json'), { cwd: '.' });
    expect(parsed.map((b) => b.name)).toEqual([
      'http_reqs rate',
      'http_req_duration med',
      'http_req_duration avg',
      'http_req_duration p(90)',
      'http_req_duration p(95)',
      'http_req_duration p(99)',
    ]);
    const p99 = parsed.find((b) => b.name === 'http_req_duration p(99)')!;
    expect(p99).toMatchObject({ unit: 'ms', biggerIsBetter: false, valueKind: 'summary' });
    expect(p99.values[0]).toBeCloseTo(20.194357, 5);
  });

  it('handleSummary JSON (metrics with "values") reads the same way', () => {
    const parsed = parseOutput('k6', fixture('handle-summary.json'), { cwd: '.' });
    expect(parsed.find((b) => b.name === 'http_req_duration p(95)')!.values[0]).toBeGreaterThan(0);
  });

  it('NDJSON stream: every request a raw sample, overall and per name tag', () => {
    const parsed = parseOutput('k6', fixture('metrics.ndjson'), { cwd: '.' });
    expect(parsed.map((b) => [b.name, b.values.length])).toEqual([
      ['http_req_duration', 11],
      ['http_req_duration{name:GET /items}', 6],
      ['http_req_duration{name:GET /search}', 5],
    ]);
    expect(parsed[0]!.valueKind).toBe('samples');
  });

  it('failed requests are an error, never a measurement', () => {
    expect(() => parseOutput('k6', fixture('summary-failed.json'), { cwd: '.' })).toThrow(
      'k6 output, metrics["http_req_failed"]: expected no failed requests, found "11 of 11 requests failed"',
    );
  });

  it('auto-detects both outputs', () => {
    expect(detectFormat(fixture('summary.json')).name).toBe('k6');
    expect(detectFormat(fixture('metrics.ndjson')).name).toBe('k6');
  });
});
