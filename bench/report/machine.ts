import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  platform: string;
  /** 1-minute load average when the run started: others' work on a shared machine shows here. */
  loadAverage: number;
}

function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match?.[1] !== undefined) return match[1].trim();
  } catch {
    // Not Linux: fall back to what node reports.
  }
  return os.cpus()[0]?.model ?? 'unknown';
}

export function describeMachine(): Machine {
  return {
    cpus: os.availableParallelism(),
    cpuModel: cpuModel(),
    memoryGb: Math.round(os.totalmem() / 1e9),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverage: os.loadavg()[0] ?? Number.NaN,
  };
}
