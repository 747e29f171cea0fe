import os from 'node:os';
import type { MachineInfo } from '../contracts/machine.js';

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    hostname: os.hostname(),
    platform: os.platform(),
    arch: os.arch(),
    kernel: os.release(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryBytes: os.totalmem(),
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
    node: process.version,
  };
}
