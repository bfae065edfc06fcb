// JUnit XML for CI: one test suite per rule family, one test case per rule. Failures fail;
// skipped rules say why; observed-level warnings pass with the warning in system-out, and
// observations pass with what was observed in a property and system-out.
import type { ConformanceReport, RuleResult } from '../report.js';

function xml(text: string): string {
  return (
    text
      // Characters XML 1.0 cannot carry at all, whatever the escaping.
      // eslint-disable-next-line no-control-regex -- control characters are what this replaces
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

function details(rule: RuleResult): string {
  const lines = [`Contract: ${rule.source}`];
  for (const finding of rule.findings) {
    lines.push(`- ${finding.message}`);
    if (finding.counterexample)
      lines.push(
        `  replay: --replay ${finding.counterexample.replay}`,
        ...finding.counterexample.steps.map((s) => `  step: ${s}`),
      );
    for (const request of finding.requests) lines.push(`  ${request.summary}`, `    ${request.curl}`);
  }
  return lines.join('\n');
}

function testcase(rule: RuleResult): string {
  const family = rule.id.split('.')[0]!;
  const open = `    <testcase classname="topics-conformance.${xml(family)}" name="${xml(`${rule.id}: ${rule.title}`)}" time="${((rule.durationMs ?? 0) / 1000).toFixed(3)}">`;
  switch (rule.status) {
    case 'failed':
      return `${open}\n      <failure message="${xml(rule.findings[0]?.message ?? 'failed')}" type="${rule.level}">${xml(details(rule))}</failure>\n    </testcase>`;
    case 'skipped':
      return `${open}\n      <skipped message="${xml(rule.detail ?? 'skipped')}"/>\n    </testcase>`;
    case 'observed':
      return [
        open,
        `      <properties><property name="observation" value="${xml(rule.detail ?? '')}"/></properties>`,
        `      <system-out>${xml(`observation (never fails): ${rule.detail ?? ''}\n${details(rule)}`)}</system-out>`,
        '    </testcase>',
      ].join('\n');
    case 'warning':
      return `${open}\n      <system-out>${xml(`warning (observed level, does not fail): ${details(rule)}`)}</system-out>\n    </testcase>`;
    default:
      return `${open}</testcase>`;
  }
}

export function renderJunit(report: ConformanceReport): string {
  const families = new Map<string, RuleResult[]>();
  for (const rule of report.rules) {
    const family = rule.id.split('.')[0]!;
    families.set(family, [...(families.get(family) ?? []), rule]);
  }
  const suites = [...families.entries()].map(([family, rules]) => {
    const count = (status: string) => rules.filter((r) => r.status === status).length;
    const time = rules.reduce((sum, r) => sum + (r.durationMs ?? 0), 0) / 1000;
    return [
      `  <testsuite name="${xml(family)}" tests="${rules.length}" failures="${count('failed')}" skipped="${count('skipped')}" errors="0" time="${time.toFixed(3)}">`,
      ...rules.map(testcase),
      '  </testsuite>',
    ].join('\n');
  });
  const { failed, skipped } = report.summary;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="topics-conformance" tests="${report.rules.length}" failures="${failed}" skipped="${skipped}" errors="0" time="${(report.durationMs / 1000).toFixed(3)}" timestamp="${report.startedAt}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
