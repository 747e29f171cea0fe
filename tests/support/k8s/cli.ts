// Starts the test cluster for manual work and benchmarks, and stops it on Ctrl-C or SIGTERM:
//   node --import tsx tests/support/k8s/cli.ts   (prints the admin kubeconfig's path)
import { startCluster } from './cluster.js';

const cluster = await startCluster();
process.stdout.write(
  `test cluster ready: ${cluster.server}\nKUBECONFIG=${cluster.kubeconfigFile}\n`,
);
const stop = async (): Promise<void> => {
  await cluster.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
setInterval(() => undefined, 1 << 30);
