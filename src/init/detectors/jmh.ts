import type { ProjectFiles } from '../project.js';
import type { Detector, ToolPlan } from '../types.js';

const OUTPUT = 'duetkit-jmh.json';
/** `@Benchmark` on a method (not `@BenchmarkMode`). */
const ANNOTATION = /@Benchmark(?!\w)/g;
/** One fork and short iterations per run: the duet repeats the run instead. */
const JMH_FLAGS = `-f 1 -wi 2 -w 500ms -i 3 -r 500ms -rf json -rff ${OUTPUT}`;

/**
 * JMH: `jmh-core` in a Maven pom.xml (or the `me.champeau.jmh` Gradle plugin). Its `-rf json`
 * file is read with every iteration of every fork; one benchmark at a time in both versions
 * (JMH's include regex). `-Djmh.ignoreLock=true` lets the two versions' JMH run at once.
 */
export const jmhDetector: Detector = {
  id: 'jmh',
  aliases: ['java', 'maven', 'gradle'],
  lookedFor: 'jmh: jmh-core in pom.xml, or the JMH plugin or jmh-core in build.gradle(.kts)',
  async detect(project) {
    const pom = await project.read('pom.xml');
    const withSuite = async (plan: ToolPlan): Promise<ToolPlan> => ({
      ...plan,
      suite: {
        fields: {},
        benchmarks: await countAnnotations(project),
        counted: '@Benchmark methods, an estimate (@Param values multiply them)',
      },
    });
    if (pom !== null && /jmh-core/.test(pom)) return withSuite(mavenPlan(pom));
    for (const file of ['build.gradle.kts', 'build.gradle']) {
      const gradle = await project.read(file);
      if (gradle !== null && /me\.champeau\.jmh|jmh-core/.test(gradle)) {
        return withSuite(gradlePlan(project, file));
      }
    }
    return null;
  },
};

async function countAnnotations(project: ProjectFiles): Promise<number> {
  let n = 0;
  for (const file of project.matching(/\.(java|kt)$/)) {
    n += (await project.read(file))?.match(ANNOTATION)?.length ?? 0;
  }
  return n;
}

function mavenPlan(pom: string): ToolPlan {
  const shaded = /maven-shade-plugin|maven-assembly-plugin/.test(pom);
  const jar =
    /<uberjar\.name>([^<]+)<\/uberjar\.name>/.exec(pom)?.[1] ??
    /<finalName>([^<$]+)<\/finalName>/.exec(pom)?.[1] ??
    'benchmarks';
  const base: Omit<ToolPlan, 'workload' | 'setup'> = {
    tool: 'jmh',
    evidence: 'jmh-core in pom.xml',
    timeout: '5m',
    steps: [javaStep()],
    comments: [
      'Each benchmark runs alone in both versions at once (perBenchmark); every iteration of',
      `every fork is read from ${OUTPUT}.`,
    ],
    notes: [],
  };
  if (shaded) {
    return {
      ...base,
      workload: {
        command: `java -Djmh.ignoreLock=true -jar target/${jar}.jar ${JMH_FLAGS}`,
        format: 'jmh',
        output: OUTPUT,
        perBenchmark: true,
      },
      setup: 'mvn -B -q package -DskipTests',
      notes: [
        `jmh: the scenario runs target/${jar}.jar; check that this is the jar your pom builds`,
      ],
    };
  }
  // No fat jar: run JMH's main class on the compiled classes and Maven's class path. A shell
  // joins the two; "$@" takes what per-benchmark runs append (-l, the include regex).
  return {
    ...base,
    workload: {
      command: [
        'sh',
        '-c',
        `java -Djmh.ignoreLock=true -cp "target/classes:$(cat target/duetkit-classpath.txt)" org.openjdk.jmh.Main ${JMH_FLAGS} "$@"`,
        'sh',
      ],
      format: 'jmh',
      output: OUTPUT,
      perBenchmark: true,
    },
    setup:
      'mvn -B -q compile dependency:build-classpath -Dmdep.outputFile=target/duetkit-classpath.txt',
  };
}

function gradlePlan(project: ProjectFiles, file: string): ToolPlan {
  const wrapper = project.files.includes('gradlew') ? './gradlew' : 'gradle';
  return {
    tool: 'jmh',
    evidence: `JMH in ${file}`,
    workload: {
      command: [
        'sh',
        '-c',
        `java -Djmh.ignoreLock=true -jar build/libs/*-jmh.jar ${JMH_FLAGS} "$@"`,
        'sh',
      ],
      format: 'jmh',
      output: OUTPUT,
      perBenchmark: true,
    },
    setup: `${wrapper} --no-daemon -q jmhJar`,
    timeout: '5m',
    steps: [javaStep()],
    comments: [
      'The jar of the JMH Gradle plugin (jmhJar) runs each benchmark alone in both versions at',
      `once (perBenchmark); every iteration of every fork is read from ${OUTPUT}.`,
    ],
    notes: [],
  };
}

function javaStep(): ToolPlan['steps'][number] {
  return { uses: 'actions/setup-java@v4', with: { distribution: 'temurin', 'java-version': '21' } };
}
