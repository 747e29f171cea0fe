/** One timestamped value a stream program printed. */
export interface StreamSample {
  /** Seconds (since the program started, or since the Unix epoch: only differences matter). */
  t: number;
  name: string;
  value: number;
  unit?: string;
  biggerIsBetter?: boolean;
}

/**
 * Reads one line of a stream program's output (docs/services.md): `TIME VALUE`,
 * `TIME NAME VALUE`, or a JSON object — `{"time": 12.5, "throughput": 5120, "lag_ms": 3}` (every
 * other numeric field a metric) or `{"time": 12.5, "name": "throughput", "value": 5120,
 * "unit": "records/s", "biggerIsBetter": true}`. Blank lines and lines starting with `#` give
 * nothing; anything else is an error naming the line, so nothing is dropped silently.
 */
export function parseStreamLine(line: string, defaultName: string): StreamSample[] {
  const text = line.trim();
  if (text === '' || text.startsWith('#')) return [];
  if (text.startsWith('{')) return parseJson(text);
  const words = text.split(/\s+/);
  const t = Number(words[0]);
  if (words.length === 2 && Number.isFinite(t) && isNumber(words[1]!)) {
    return [{ t, name: defaultName, value: Number(words[1]) }];
  }
  if (words.length === 3 && Number.isFinite(t) && isNumber(words[2]!)) {
    return [{ t, name: words[1]!, value: Number(words[2]) }];
  }
  throw new Error(
    `expected "TIME VALUE", "TIME NAME VALUE" or a JSON object with "time", found ${JSON.stringify(text.slice(0, 120))}`,
  );
}

function parseJson(text: string): StreamSample[] {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`not valid JSON: ${JSON.stringify(text.slice(0, 120))}`);
  }
  const t = record.time ?? record.t ?? record.timestamp;
  if (typeof t !== 'number' || !Number.isFinite(t)) {
    throw new Error(`a JSON sample needs a numeric "time" (seconds): ${text.slice(0, 120)}`);
  }
  if (typeof record.name === 'string') {
    if (typeof record.value !== 'number' || !Number.isFinite(record.value)) {
      throw new Error(`"${record.name}" has no numeric "value": ${text.slice(0, 120)}`);
    }
    return [
      {
        t,
        name: record.name,
        value: record.value,
        ...(typeof record.unit === 'string' ? { unit: record.unit } : {}),
        ...(typeof record.biggerIsBetter === 'boolean'
          ? { biggerIsBetter: record.biggerIsBetter }
          : {}),
      },
    ];
  }
  const samples = Object.entries(record)
    .filter(([key, v]) => !['time', 't', 'timestamp'].includes(key) && typeof v === 'number')
    .map(([name, value]) => ({ t, name, value: value as number }));
  if (samples.length === 0)
    throw new Error(`a JSON sample without a numeric metric: ${text.slice(0, 120)}`);
  return samples;
}

function isNumber(word: string): boolean {
  return word !== '' && Number.isFinite(Number(word));
}
