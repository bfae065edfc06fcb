import { appendFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Each reliability test reports what it measured: one line a reader can take in at a glance,
// and the same figures as a JSON line in .tmp/reliability-figures.jsonl, so the README's
// "Reliability" section can cite the last run.

const root = fileURLToPath(new URL('../..', import.meta.url));
export const FIGURES_FILE = `${root}.tmp/reliability-figures.jsonl`;

export function reportFigure(name: string, summary: string, figures: Record<string, unknown>): void {
  process.stdout.write(`${name}: ${summary}\n`);
  mkdirSync(`${root}.tmp`, { recursive: true });
  appendFileSync(
    FIGURES_FILE,
    `${JSON.stringify({ name, at: new Date().toISOString(), node: process.version, summary, ...figures })}\n`,
  );
}

/** Bytes as MB with one decimal, for summaries. */
export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
