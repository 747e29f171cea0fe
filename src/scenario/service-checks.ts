import type { z } from 'zod';

/** The parts of a parsed scenario that the service drivers' checks look at. */
interface ServiceScenario {
  mode: string;
  versions: { name: string }[];
  workload: {
    driver: string;
    command?: string[];
    format?: string | undefined;
    output?: string | undefined;
    perBenchmark: boolean;
    server?: { replicas: number; ports?: Record<string, number[]> | undefined } | undefined;
    load?: unknown;
    stream?: unknown;
  };
}

/**
 * The rules that tie the service fields (`server`, `load`, `stream`) to the driver and the
 * versions: which driver needs which, and fixed ports that match the versions and replicas.
 */
export function checkServiceWorkload(s: ServiceScenario, ctx: z.RefinementCtx): void {
  const w = s.workload;
  // Also called when another field already failed: the command's default may be missing.
  const command = w.command ?? [];
  const issue = (path: (string | number)[], message: string): void =>
    ctx.addIssue({ code: 'custom', path: ['workload', ...path], message });
  const driver = w.driver;
  if (driver === 'http') {
    if (w.server === undefined) {
      issue(['server'], 'the servers to load: server: {command: [node, server.js], replicas: 1}');
    }
    if (w.load === undefined) {
      issue(['load'], 'the load to offer: load: {stages: [{duration: 10s, qps: 100}]}');
    }
    if (command.length > 0) {
      issue(['command'], 'no command with the http driver: the servers are workload.server');
    }
  } else if (command.length === 0) {
    issue(['command'], `a command: the ${driver} driver runs one (argv list or string)`);
  }
  if (w.server !== undefined && driver !== 'http' && driver !== 'k6') {
    issue(['server'], 'servers only with the http or k6 driver');
  }
  if (w.load !== undefined && driver !== 'http') {
    issue(['load'], 'a load only with the http driver');
  }
  if (w.stream !== undefined && driver !== 'stream') {
    issue(['stream'], 'stream settings only with the stream driver');
  }
  if (driver === 'k6' && w.format !== undefined && w.format !== 'k6') {
    issue(['format'], 'k6 or nothing: the k6 driver reads the summary k6 exports');
  }
  if (driver === 'http' || driver === 'stream' || driver === 'k6') {
    if (w.format !== undefined && driver !== 'k6') {
      issue(['format'], `no format with the ${driver} driver: it makes its own metrics`);
    }
    if (w.perBenchmark) issue(['perBenchmark'], 'false: only the command driver runs suites');
    if (w.output !== undefined) {
      issue(['output'], `no output file with the ${driver} driver: it knows where its results are`);
    }
  }
  checkPorts(s, issue);
}

function checkPorts(
  s: ServiceScenario,
  issue: (path: (string | number)[], message: string) => void,
): void {
  const server = s.workload.server;
  if (server?.ports === undefined) return;
  const names = s.versions.map((v) => v.name);
  const seen = new Map<number, string>();
  for (const [version, ports] of Object.entries(server.ports)) {
    if (!names.includes(version)) {
      issue(['server', 'ports', version], `a version name: ${names.join(', ')}`);
      continue;
    }
    if (ports.length !== server.replicas) {
      issue(
        ['server', 'ports', version],
        `${server.replicas} port(s), one per replica (server.replicas is ${server.replicas})`,
      );
    }
    ports.forEach((port, i) => {
      const other = seen.get(port);
      if (other !== undefined) {
        // Every version's servers run for the whole experiment, whatever the mode.
        issue(
          ['server', 'ports', version, i],
          `a port no other replica uses (${other} has ${port})`,
        );
      }
      seen.set(port, `${version}[${i}]`);
    });
  }
  for (const name of names) {
    if (!(name in server.ports)) {
      issue(['server', 'ports'], `ports for every version, or none (missing: ${name})`);
    }
  }
}
