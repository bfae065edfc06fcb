import { formatViolation } from '../judge/format.js';
import type { ExamRuleResult } from './judging.js';
import type { ExamReport } from './run.js';

// The exam's report, in the conformance suite's style: one line per rule (pass / FAIL / warn
// / skip), each violation with the sentence it rests on and the requests that show it, the
// gauntlet's steps, the end-to-end check and the counts. Also as JUnit XML and JSON for CI.

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function label(rule: ExamRuleResult, strict: boolean): string {
  if (rule.status === 'passed') return 'pass';
  if (rule.status === 'not exercised') return 'skip';
  return rule.level === 'contract' || strict ? 'FAIL' : 'warn';
}

function detail(rule: ExamRuleResult): string {
  if (rule.violations.length)
    return `${rule.violations.length} violation(s): ${rule.violations[0]!.message}`.slice(0, 110);
  return rule.status === 'passed' ? `${rule.occasions} occasion(s)` : 'not exercised';
}

function endToEndLine(report: ExamReport): string {
  const e = report.endToEnd;
  if (!e.exercised)
    return `end to end: not checked (the command printed none of the ${e.published} messages; print each text on its own line to be checked)`;
  const problems = [
    e.missing.length && `${e.missing.length} missing (${e.missing.slice(0, 10).join(', ')})`,
    e.duplicated.length && `${e.duplicated.length} printed twice (${e.duplicated.slice(0, 10).join(', ')})`,
    e.outOfOrder.length && `${e.outOfOrder.length} out of order (${e.outOfOrder.slice(0, 10).join(', ')})`,
  ].filter(Boolean);
  return `end to end: ${e.passed ? 'pass' : 'FAIL'}: ${e.printed} of ${e.published} published printed, ${e.excused} excused (before the first poll, taken by a page change, after a lost token)${problems.length ? `; ${problems.join('; ')}` : ''}`;
}

export function renderText(report: ExamReport): string {
  const lines = [
    `topics-emulator exam: ${report.command} (scenario ${report.plan.name}, ${report.plan.durationMs / 1000} s)`,
  ];
  if (report.error) return `${[...lines, report.error].join('\n')}\n`;
  const idWidth = Math.max(...report.rules.map((r) => r.id.length)) + 2;
  lines.push(
    `clients judged: ${report.clients.join(', ') || 'none (the command sent no request with a credential)'}`,
    '',
    `  ${pad('RESULT', 7)} ${pad('LEVEL', 9)} ${pad('RULE', idWidth)} DETAIL`,
    ...report.rules.map(
      (r) => `  ${pad(label(r, report.strict), 7)} ${pad(r.level, 9)} ${pad(r.id, idWidth)} ${detail(r)}`,
    ),
    '',
    'Gauntlet',
    ...report.steps.map(
      (s) => `  ${pad(s.outcome, 14)} ${pad(s.kind, 13)} at ${(s.atMs / 1000).toFixed(1)} s: ${s.note}`,
    ),
    '',
    endToEndLine(report),
  );
  const violated = report.rules.filter((r) => r.violations.length);
  if (violated.length) {
    lines.push('', `Violations${report.strict ? '' : ' (advice-level ones fail only with --strict)'}`, '');
    for (const rule of violated)
      for (const v of rule.violations) lines.push(formatViolation(v, '  ').replace(/^ {2}/, `  [${v.client}] `), '');
  }
  const count = (status: ExamRuleResult['status']) => report.rules.filter((r) => r.status === status).length;
  const c = report.counts;
  lines.push(
    '',
    `${count('passed')} passed, ${count('violated')} violated, ${count('not exercised')} not exercised; ${c.requests} requests (${c.polls} polls, ${c.publishes} publishes), ${c.throttled} 429s seen, ${c.retries} retries, ${c.discontinuities} discontinuities handled, ${c.itemsReceived} items received in ${(report.durationMs / 1000).toFixed(1)} s`,
    `exam ${report.exitCode === 0 ? 'passed' : 'failed'} (exit ${report.exitCode})${report.commandExit.stoppedByExam ? '; the command was stopped at the end of the exam' : `; the command exited with ${report.commandExit.code ?? report.commandExit.signal}`}`,
  );
  return `${lines.join('\n')}\n`;
}

function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\ufffd]/g, '\ufffd') // what XML 1.0 cannot hold
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

export function renderJunit(report: ExamReport): string {
  const cases = report.rules.map((r) => {
    const open = `    <testcase classname="topics-emulator-exam.${xml(r.id.split('.')[0]!)}" name="${xml(`${r.id}: ${r.title}`)}">`;
    if (r.status === 'not exercised') return `${open}\n      <skipped message="not exercised"/>\n    </testcase>`;
    if (r.status === 'passed') return `${open}</testcase>`;
    const body = xml(r.violations.map((v) => formatViolation(v)).join('\n\n'));
    if (r.level === 'advice' && !report.strict)
      return `${open}\n      <system-out>${xml('advice (fails only with --strict):\n')}${body}</system-out>\n    </testcase>`;
    return `${open}\n      <failure message="${xml(r.violations[0]!.message)}" type="${r.level}">${body}</failure>\n    </testcase>`;
  });
  const e = report.endToEnd;
  cases.push(
    `    <testcase classname="topics-emulator-exam.end-to-end" name="every message printed once, in order">${
      !e.exercised
        ? '\n      <skipped message="the command printed none of the messages"/>\n    </testcase>'
        : e.passed
          ? '</testcase>'
          : `\n      <failure message="${xml(endToEndLine(report))}" type="contract"/>\n    </testcase>`
    }`,
  );
  const failures = cases.filter((c) => c.includes('<failure')).length;
  const skipped = cases.filter((c) => c.includes('<skipped')).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="topics-emulator exam" tests="${cases.length}" failures="${failures}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="${xml(report.command)}" tests="${cases.length}" failures="${failures}" skipped="${skipped}" timestamp="${report.startedAt}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

export function renderJson(report: ExamReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
