import type { MachineFingerprint } from './fingerprint.js';
import os from 'node:os';

/** The machine a run measured on, recorded with every samples file. */
export interface MachineInfo {
  hostname: string;
  platform: string;
  arch: string;
  kernel: string;
  cpuModel: string;
  cores: number;
  memoryBytes: number;
  /** 1, 5 and 15 minute load averages when the run started. */
  loadAverage: number[];
  node: string;
  /**
   * What kind of machine it was, for comparing runs (fingerprint.ts); absent in files written
   * before it was recorded.
   */
  fingerprint?: MachineFingerprint;
}

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
