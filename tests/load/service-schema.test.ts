import { parseScenario } from '../../src/scenario/load.js';
import type { ScenarioInput } from '../../src/scenario/schema.js';

const base = (workload: Record<string, unknown>, extra: Partial<ScenarioInput> = {}): unknown => ({
  versions: [
    { name: 'base', path: 'a' },
    { name: 'head', path: 'b' },
  ],
  workload,
  ...extra,
});
const server = { command: 'node server.mjs' };
const stages = [{ duration: '1s', qps: 10 }];

function problems(raw: unknown): string {
  try {
    parseScenario(raw);
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
}

describe('service workloads: the schema names every bad field', () => {
  it('accepts an http workload and fills the defaults', () => {
    const s = parseScenario(base({ driver: 'http', server, load: { stages } }));
    expect(s.workload.command).toEqual([]);
    expect(s.workload.server).toMatchObject({ replicas: 1, host: '127.0.0.1', stopTimeout: 5 });
    expect(s.workload.load).toMatchObject({
      arrival: 'poisson',
      balance: 'round-robin',
      connections: 64,
      timeout: 10,
      maxErrorRate: 0.01,
      percentiles: [50, 90, 95, 99, 99.9],
    });
    expect(s.workload.load!.mix).toEqual([{ method: 'GET', path: '/', headers: {}, weight: 1 }]);
  });

  it('a schedule with negative QPS', () => {
    const message = problems(
      base({ driver: 'http', server, load: { stages: [{ duration: 1, qps: -5 }] } }),
    );
    expect(message).toContain('workload.load.stages[0].qps: got -5; expected a rate ≥ 0');
  });

  it('a request mix with zero total weight', () => {
    const message = problems(
      base({
        driver: 'http',
        server,
        load: {
          stages,
          mix: [
            { path: '/a', weight: 0 },
            { path: '/b', weight: 0 },
          ],
        },
      }),
    );
    expect(message).toContain('workload.load.mix: got');
    expect(message).toContain('weights that add up to more than 0');
  });

  it('http without servers or load; a command where none belongs', () => {
    const message = problems(base({ driver: 'http', command: 'node x.js' }));
    expect(message).toContain('workload.server: got nothing; expected the servers to load');
    expect(message).toContain('workload.load: got nothing; expected the load to offer');
    expect(message).toContain('workload.command: got "node x.js"; expected no command');
  });

  it('fixed ports must match the versions and replicas, and differ', () => {
    const message = problems(
      base({
        driver: 'http',
        server: { ...server, replicas: 2, ports: { base: [8080, 8081], head: [8081] } },
        load: { stages },
      }),
    );
    expect(message).toContain('workload.server.ports.head: got [8081]; expected 2 port(s)');
    expect(message).toContain('workload.server.ports.head[0]: got 8081; expected a port no other');
  });

  it('servers listen on this machine only', () => {
    const message = problems(
      base({ driver: 'http', server: { ...server, host: '10.0.0.5' }, load: { stages } }),
    );
    expect(message).toContain('workload.server.host: got "10.0.0.5"; expected a loopback address');
  });

  it('stream and k6 need a command; stream settings only with stream', () => {
    expect(problems(base({ driver: 'stream' }))).toContain(
      'workload.command: got nothing; expected a command: the stream driver runs one',
    );
    expect(problems(base({ command: 'x', stream: { warmup: 5 } }))).toContain(
      'workload.stream: got {"warmup":5}; expected stream settings only with the stream driver',
    );
    expect(problems(base({ driver: 'k6', command: 'k6 run x.js', format: 'jsonl' }))).toContain(
      'workload.format: got "jsonl"; expected k6 or nothing',
    );
  });

  it('a closed loop has no clients', () => {
    expect(
      problems(
        base({ driver: 'http', server, load: { arrival: 'closed', clients: [{ stages }] } }),
      ),
    ).toContain('workload.load.clients: got [');
  });

  it('a load with nothing measured: every stage a warm-up needs a measured one (at run time)', () => {
    expect(problems(base({ driver: 'http', server, load: {} }))).toContain(
      'workload.load.stages: got nothing; expected a rate schedule',
    );
  });
});
