import { describe, expect, it } from 'vitest';
import type { ConformanceReport, RuleResult } from '../../conformance/report.js';
import { renderJson } from '../../conformance/reporters/json.js';
import { renderJunit } from '../../conformance/reporters/junit.js';
import { renderTable } from '../../conformance/reporters/table.js';

// The observation outcome in each reporter: recorded, shown, never a failure.
const rule = (id: string, status: RuleResult['status'], detail?: string): RuleResult => ({
  id,
  title: `${id} title`,
  level: status === 'observed' ? 'observation' : 'documented',
  kind: 'active',
  source: 'a sentence',
  status,
  ...(detail ? { detail } : {}),
  findings: [],
  findingCount: 0,
});

const report: ConformanceReport = {
  tool: 'topics-conformance',
  target: { baseUrl: 'http://127.0.0.1:1', cache: 'c' },
  runId: 'r',
  seed: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1000,
  requests: 10,
  throttled: 0,
  control: { available: false, reason: 'off' },
  rules: [
    rule('auth.header-accepted', 'passed'),
    rule('observe.first-request', 'observed', 'waits for the next message published, and answers it'),
  ],
  summary: { passed: 1, failed: 0, warning: 0, observed: 1, skipped: 0 },
  exitCode: 0,
  variables: [],
};

describe('the observation outcome', () => {
  it('the table shows it as seen, lists it under Observations and counts it', () => {
    const table = renderTable(report);
    expect(table).toMatch(/seen\s+observation\s+observe\.first-request\s+waits for the next message/);
    expect(table).toContain('Observations (what this endpoint does where public sources are silent; never a failure)');
    expect(table).toContain('1 passed, 0 failed, 0 warning(s), 1 observation(s), 0 skipped');
  });

  it('JUnit passes it, with the observation as a property and in system-out', () => {
    const junit = renderJunit(report);
    const observe = /<testcase classname="topics-conformance.observe"[\s\S]*?<\/testcase>/.exec(junit)![0];
    expect(observe).toContain(
      '<property name="observation" value="waits for the next message published, and answers it"/>',
    );
    expect(observe).toContain('<system-out>observation (never fails)');
    expect(observe).not.toMatch(/<failure|<skipped/);
    expect(junit).toContain('failures="0"');
  });

  it('JSON keeps the status and the detail', () => {
    const json = JSON.parse(renderJson(report)) as ConformanceReport;
    expect(json.rules[1]).toMatchObject({
      status: 'observed',
      level: 'observation',
      detail: expect.stringMatching(/^waits/),
    });
    expect(json.summary.observed).toBe(1);
  });
});
