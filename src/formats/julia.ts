import { BenchmarkCollector } from './collector.js';
import { JsonReader } from './json-reader.js';
import { FormatError, type BenchmarkFormat } from './types.js';

/**
 * BenchmarkTools.jl's `BenchmarkTools.save(file, results)`: `[versions, [group...]]` where a
 * group is `["BenchmarkGroup", {data: {key: child}}]`. A saved `Trial` keeps every sample
 * (`times`, ns); a `TrialEstimate` (after `median(results)`, what github-action-benchmark
 * requires) is one summary `time`. Names join the group keys with `/`. Memory (B) and
 * allocation counts are kept as `<name> - memory` and `<name> - allocs`.
 */
function readNode(node: JsonReader, labels: string[], collector: BenchmarkCollector): void {
  const [tag, body] = node.items();
  const kind = tag?.string();
  if (body === undefined) {
    throw new FormatError('julia', node.path, 'a ["TYPE", {...}] pair');
  }
  const name = labels.join('/');
  if (kind === 'BenchmarkGroup') {
    for (const [key, child] of body.get('data').entries())
      readNode(child, [...labels, key], collector);
    return;
  }
  if (kind === 'Trial' || kind === 'TrialEstimate') {
    if (name === '') throw new FormatError('julia', node.path, 'a trial inside a named group');
    const valueKind = kind === 'Trial' ? 'samples' : 'summary';
    const time = kind === 'Trial' ? body.get('times') : body.get('time');
    const values = kind === 'Trial' ? time.numbers() : [time.number()];
    collector.add(time.path, name, 'ns', false, values, valueKind);
    const memory = body.get('memory');
    collector.add(memory.path, `${name} - memory`, 'B', false, [memory.number()], 'summary');
    const allocs = body.get('allocs');
    collector.add(allocs.path, `${name} - allocs`, 'allocs', false, [allocs.number()], 'summary');
    return;
  }
  throw new FormatError(
    'julia',
    `${node.path}[0]`,
    '"BenchmarkGroup", "Trial" or "TrialEstimate"',
    kind,
  );
}

export const julia: BenchmarkFormat = {
  name: 'julia',
  description: 'BenchmarkTools.jl saved JSON (Trial: every sample; TrialEstimate: summary)',
  reads: 'stdout',
  parse(output) {
    const json = JsonReader.parse('julia', output, 'the JSON of BenchmarkTools.save');
    const [, groups] = json.items();
    if (groups === undefined) throw new FormatError('julia', '$[1]', 'the list of saved groups');
    const collector = new BenchmarkCollector('julia');
    for (const group of groups.items()) readNode(group, [], collector);
    return collector.finish('at least one Trial or TrialEstimate');
  },
  detect(output) {
    return /"BenchmarkTools"/.test(output) && /"BenchmarkGroup"/.test(output);
  },
};
