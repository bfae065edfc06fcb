// The whole report as JSON, for CI and for the differential mode. Tokens are already redacted.
import type { ConformanceReport } from '../report.js';

export function renderJson(report: ConformanceReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
