// The layering of src/ (docs/architecture.md), checked by `npm run lint:deps` in `npm run all`.
// Type-only imports count: a circle of types is still a circle.

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles in src/, type-only imports included: data flows one way.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'contracts-import-only-scenario-and-stats',
      severity: 'error',
      comment:
        'src/contracts/ holds the JSON types between the stages; it may name the scenario and ' +
        "the statistics' types, and nothing else (no stage, no package, no I/O).",
      from: { path: '^src/contracts/' },
      to: { pathNot: '^src/(contracts|scenario|stats)/' },
    },
    {
      name: 'stats-is-pure',
      severity: 'error',
      comment: 'src/stats/ imports nothing of src/ outside itself: it is an internal library.',
      from: { path: '^src/stats/' },
      to: { path: '^src/', pathNot: '^src/stats/' },
    },
    {
      name: 'stats-no-node-modules',
      severity: 'error',
      comment: 'src/stats/ takes numbers and an injected RNG: no fs, os, child_process...',
      from: { path: '^src/stats/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'pipeline-only-from-entry-points',
      severity: 'error',
      comment:
        'src/pipeline/ (the orchestrators) sits above the stages: only the entry points (cli, ' +
        'action) and calibrate, which runs whole scenarios as `duetkit run` does, import it; ' +
        'no stage ever does.',
      from: { path: '^src/', pathNot: '^src/(pipeline|cli|action|calibrate)/' },
      to: { path: '^src/pipeline/' },
    },
    {
      name: 'analyze-does-not-import-report',
      severity: 'error',
      comment:
        'comparison.json flows from analyze/ to its renderers in report/, never back: the ' +
        'terminal report is a renderer like the others.',
      from: { path: '^src/analyze/' },
      to: { path: '^src/report/' },
    },
    {
      name: 'history-does-not-import-variability',
      severity: 'error',
      comment:
        'variability/ reads the history; the history knows nothing of it: the files ' +
        'variability derives on publish are passed in by the entry points.',
      from: { path: '^src/history/' },
      to: { path: '^src/variability/' },
    },
    {
      name: 'cli-imported-by-no-other-room',
      severity: 'error',
      comment: 'src/cli/ is an entry point: nothing outside it imports it.',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'action-imported-by-no-other-room',
      severity: 'error',
      comment: 'src/action/ is an entry point: nothing outside it imports it.',
      from: { path: '^src/', pathNot: '^src/action/' },
      to: { path: '^src/action/' },
    },
    {
      name: 'resolvable',
      severity: 'error',
      comment: 'An import the cruiser cannot resolve would escape every rule above.',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Type-only imports are dependencies too (they are erased from the bundle, not from the design).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'types', 'default'],
    },
  },
};
