import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ComparisonReport } from '../contracts/comparison.js';
import type { ProfilesFile } from '../contracts/profile.js';
import { renderFlameGraph } from './flame-graph.js';
import { mergeTree } from './flame-tree.js';
import { explainFiles } from './paths.js';
import { toSpeedscope } from './speedscope.js';

/**
 * Writes what the `explain` blocks of `report` (from `attachExplanations`) point to, under the
 * results directory: per profiled benchmark, the differential flame graph
 * (`profiles/<benchmark>/diff.html`) and a speedscope file per side. Returns the paths written,
 * relative to `resultsDir`.
 */
export async function writeExplainArtifacts(
  resultsDir: string,
  report: ComparisonReport,
  profiles: ProfilesFile,
): Promise<string[]> {
  const written: string[] = [];
  const write = async (relative: string, text: string): Promise<void> => {
    const target = path.join(resultsDir, relative);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
    written.push(relative);
  };
  for (const pair of profiles.pairs) {
    if (pair.base === null || pair.head === null) continue;
    const files = explainFiles(pair.benchmark, pair.head.version);
    const explain = report.results.find(
      (r) => r.explain?.files.flameGraph === files.flameGraph,
    )?.explain;
    if (explain === undefined) continue;
    await write(
      files.flameGraph,
      renderFlameGraph(pair.benchmark, mergeTree(pair.base, pair.head), explain),
    );
    for (const side of [pair.base, pair.head]) {
      const which = side === pair.base ? 'base' : 'head';
      const json = toSpeedscope(side, `${pair.benchmark} (${side.version})`);
      await write(files.speedscope[which], `${JSON.stringify(json)}\n`);
    }
  }
  return written;
}
