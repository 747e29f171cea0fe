import { z } from 'zod';
import { duration } from './fields.js';

/** Which benchmarks are profiled after the verdict (docs/explain.md, "Profiles"). */
export const PROFILE_POLICIES = ['changed', 'always', 'never'] as const;

/** The profilers of src/profile/; `auto` picks one per workload (src/profile/choose.ts). */
export const PROFILERS = ['auto', 'perf', 'pprof', 'py-spy', 'node'] as const;

/** How perf walks the stack: frame pointers, or DWARF unwinding for code built without them. */
export const CALL_GRAPHS = ['fp', 'dwarf'] as const;

const profileObject = z
  .object({
    /**
     * `changed` (default): only benchmarks called `regression` or `improvement`; `always`:
     * every benchmark; `never`: no profiles.
     */
    when: z.enum(PROFILE_POLICIES).default('changed'),
    /** `auto` (default): perf for commands and native code, pprof for go, py-spy, node. */
    profiler: z.enum(PROFILERS).default('auto'),
    /**
     * The machine time profiling may take in all. Default: a fifth of the scenario's
     * `budget`, or 60 s without one. A profile already started is finished.
     */
    budget: duration.optional(),
    /** Runs of each side per benchmark, each one process (a chunk of the profile). Default 5. */
    runs: z.number().int().min(1).max(100).default(8),
    /** Samples per second (perf, py-spy). Default 999: off the 1 kHz of periodic timers. */
    frequency: z.number().int().min(10).max(10_000).default(999),
    /** perf's call graphs: `fp` (default) or `dwarf` for code without frame pointers. */
    callGraph: z.enum(CALL_GRAPHS).default('fp'),
  })
  .strict();

/**
 * `profile:` of a scenario: a policy alone (`profile: always`) or an object with the policy
 * as `when`. Parsed once here; src/profile/ takes the result. The issues of the object are
 * passed on where the user wrote them: at `profile` itself for the short form.
 */
export const profileSchema = z.unknown().transform((value, ctx) => {
  const short = typeof value === 'string';
  const parsed = profileObject.safeParse(short ? { when: value } : value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      ctx.addIssue({
        code: 'custom',
        path: issue.path,
        message: `no field ${issue.keys.map((k) => JSON.stringify(k)).join(', ')} (accepted: ${PROFILE_FIELDS.join(', ')})`,
      });
    } else if (issue.code === 'invalid_type' && issue.path.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: `one of ${PROFILE_POLICIES.join(', ')}, or an object with fields ${PROFILE_FIELDS.join(', ')}`,
      });
    } else {
      ctx.addIssue({ ...issue, path: short ? [] : issue.path } as z.core.$ZodRawIssue);
    }
  }
  return z.NEVER;
});

const PROFILE_FIELDS = Object.keys(profileObject.shape);

/** What a scenario without `profile:` gets. */
export function defaultProfile(): ProfileSpec {
  return profileObject.parse({});
}

export type ProfileSpec = z.output<typeof profileSchema>;
export type ProfilePolicy = ProfileSpec['when'];
export type ProfilerChoice = ProfileSpec['profiler'];

/** The default machine time for profiling, s: a fifth of the run's budget, or 60 s. */
export function profileBudgetSeconds(spec: ProfileSpec, runBudget: number | undefined): number {
  return spec.budget ?? (runBudget === undefined ? 60 : runBudget / 5);
}
