// The human report: one line per rule, then each failure and warning with the contract
// sentence, the minimal scenario, how to replay it, and curl commands that reproduce it.
import type { ConformanceReport, RuleResult, RuleStatus } from '../report.js';

const LABEL: Record<RuleStatus, string> = {
  passed: 'pass',
  failed: 'FAIL',
  warning: 'warn',
  observed: 'seen',
  skipped: 'skip',
};

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function detail(rule: RuleResult): string {
  if (rule.findings.length > 0) return `${rule.findingCount} finding(s): ${rule.findings[0]!.message}`.slice(0, 110);
  return rule.detail ?? '';
}

function findingBlock(report: ConformanceReport, rule: RuleResult, replayCommand: string): string[] {
  const lines = [`${LABEL[rule.status]} ${rule.id}: ${rule.title}`, `  Contract: ${rule.source}`];
  for (const finding of rule.findings) {
    lines.push(`  - ${finding.message}`);
    const example = finding.counterexample;
    if (example) {
      lines.push(
        `    Minimal scenario (generated scenario ${example.runs} failed; shrunk in ${example.shrinks} step(s)):`,
      );
      example.steps.forEach((step, i) => lines.push(`      ${i + 1}. ${step}`));
      lines.push(`    Replay: ${replayCommand} --replay ${example.replay}`);
    }
    if (finding.requests.length > 0) {
      lines.push(
        `    Requests${report.variables.length > 0 ? ` (export ${report.variables.map((v) => `${v}=...`).join(' ')} first)` : ''}:`,
      );
      for (const request of finding.requests) {
        lines.push(
          `      ${request.summary}${request.response ? `  ${request.response.replace(/\s+/g, ' ').slice(0, 160)}` : ''}`,
        );
        lines.push(`        ${request.curl}`);
      }
    }
  }
  if (rule.findingCount > rule.findings.length) lines.push(`  (${rule.findingCount - rule.findings.length} more)`);
  return lines;
}

export function renderTable(report: ConformanceReport): string {
  const idWidth = Math.max(...report.rules.map((r) => r.id.length), 4) + 2;
  const lines = [
    `topics-conformance against ${report.target.baseUrl} (cache ${report.target.cache}), seed ${report.seed}, run ${report.runId}`,
    `control plane: ${report.control.available ? 'detected' : 'not used'} (${report.control.reason})`,
    '',
    `  ${pad('RESULT', 7)} ${pad('LEVEL', 11)} ${pad('RULE', idWidth)} DETAIL`,
    ...report.rules.map((r) => `  ${pad(LABEL[r.status], 7)} ${pad(r.level, 11)} ${pad(r.id, idWidth)} ${detail(r)}`),
  ];
  const observed = report.rules.filter((r) => r.status === 'observed');
  if (observed.length > 0) {
    lines.push('', 'Observations (what this endpoint does where public sources are silent; never a failure)', '');
    for (const rule of observed) lines.push(`  ${rule.id}: ${rule.title}`, `    ${rule.detail ?? ''}`);
  }
  const noteworthy = report.rules.filter((r) => r.status === 'failed' || r.status === 'warning');
  if (noteworthy.length > 0) {
    const replayCommand = `topics-conformance --base-url ${report.target.baseUrl} --cache ${report.target.cache} --token "$TOKEN"`;
    lines.push('', 'Failures and warnings (observed-level warnings never fail the run)', '');
    for (const rule of noteworthy) lines.push(...findingBlock(report, rule, replayCommand), '');
  }
  const { passed, failed, warning, observed: observations, skipped } = report.summary;
  lines.push(
    '',
    `${passed} passed, ${failed} failed, ${warning} warning(s), ${observations} observation(s), ${skipped} skipped; ${report.requests} requests (${report.throttled} throttled and retried) in ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  return `${lines.join('\n')}\n`;
}
