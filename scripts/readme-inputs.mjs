// Regenerates the inputs and outputs tables of the action between the markers
//   <!-- inputs:start --> ... <!-- inputs:end -->
// in README.md and docs/action.md from action.yml, so the documentation never drifts from
// the action. `--check` changes nothing and exits 1 when a file is stale.
//
//   node scripts/readme-inputs.mjs [--check] [--action action.yml] [file.md ...]
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

const START = '<!-- inputs:start -->';
const END = '<!-- inputs:end -->';

/** The two tables, as markdown. */
export function renderTables(actionYaml) {
  const action = parse(actionYaml);
  const cell = (text) =>
    String(text ?? '')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/\|/g, '\\|');
  const inputs = Object.entries(action.inputs ?? {}).map(
    ([name, spec]) =>
      `| \`${name}\` | ${spec.default === undefined ? '' : `\`${cell(spec.default)}\``} | ${cell(spec.description)} |`,
  );
  const outputs = Object.entries(action.outputs ?? {}).map(
    ([name, spec]) => `| \`${name}\` | ${cell(spec.description)} |`,
  );
  return [
    '<!-- Generated from action.yml by scripts/readme-inputs.mjs: edit action.yml, then run it. -->',
    '',
    '| Input | Default | Description |',
    '| --- | --- | --- |',
    ...inputs,
    '',
    '| Output | Description |',
    '| --- | --- |',
    ...outputs,
  ].join('\n');
}

/** The document with its marked section replaced; throws when the markers are missing. */
export function updateDocument(text, tables, file = 'the document') {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) {
    throw new Error(`${file} has no "${START}" ... "${END}" section to fill`);
  }
  return `${text.slice(0, start + START.length)}\n${tables}\n${text.slice(end)}`;
}

function main(argv) {
  const check = argv.includes('--check');
  const actionIndex = argv.indexOf('--action');
  const actionFile = actionIndex >= 0 ? argv[actionIndex + 1] : 'action.yml';
  const files = argv.filter(
    (a, i) => !a.startsWith('--') && (actionIndex < 0 || i !== actionIndex + 1),
  );
  const tables = renderTables(readFileSync(actionFile, 'utf8'));
  const stale = [];
  for (const file of files.length > 0 ? files : ['README.md', 'docs/action.md']) {
    const text = readFileSync(file, 'utf8');
    const updated = updateDocument(text, tables, file);
    if (updated === text) continue;
    if (check) stale.push(file);
    else writeFileSync(file, updated);
  }
  if (stale.length > 0) {
    console.error(
      `stale action inputs table in ${stale.join(', ')}: run node scripts/readme-inputs.mjs`,
    );
    process.exitCode = 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(`readme-inputs: ${error.message}`);
    process.exitCode = 1;
  }
}
