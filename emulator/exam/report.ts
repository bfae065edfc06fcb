import { formatEntry } from '../../judge/format.js';
import { fails, type ExamRuleFinding, type ExamRuleResult } from './judging.js';
import type { ExamReport } from './run.js';

// The exam's report, in the conformance suite's style: one line per rule (pass / FAIL / warn
// / skip), then one block per rule and client (how many violations, the first few with the
// requests that show them), the gauntlet's steps, the end-to-end check, the counts, and a
// last line with the verdict and why. The JUnit report holds the same content; the JSON
// report holds everything.

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function label(rule: ExamRuleResult, strict: boolean): string {
  if (rule.status === 'passed') return 'pass';
  if (rule.status === 'not exercised') return 'skip';
  return fails(rule, strict) ? 'FAIL' : 'warn';
}

function detail(rule: ExamRuleResult): string {
  if (rule.status === 'violated') {
    const who = rule.findings.length > 1 ? ` by ${rule.findings.length} clients` : '';
    return `${rule.violationCount} violation(s)${who} in ${rule.occasions} occasion(s)`;
  }
  return rule.status === 'passed' ? `${rule.occasions} occasion(s)` : 'not exercised';
}

/** Why a command may have printed none of the messages it received. */
function silenceHint(report: ExamReport): string {
  if (report.linesPrinted > 0)
    return `it printed ${report.linesPrinted} line(s), none holding "exam message <n>" (the text every message holds, in --messages ${report.messages} as in any other form)`;
  if (report.counts.itemsReceived === 0) return 'print each message on its own line to be checked';
  return `its requests received ${report.counts.itemsReceived} items: if it prints them, its output may be buffered (flush after each line; Python: -u or PYTHONUNBUFFERED=1, which the exam sets)`;
}

function endToEndLine(report: ExamReport): string {
  const e = report.endToEnd;
  if (!e.exercised)
    return `end to end: not checked (the command printed none of the ${e.published} messages published; ${silenceHint(report)})`;
  const list = (numbers: number[]) =>
    `${numbers.slice(0, 10).join(', ')}${numbers.length > 10 ? `, and ${numbers.length - 10} more` : ''}`;
  const problems = [
    e.missing.length && `${e.missing.length} missing (${list(e.missing)})`,
    e.duplicated.length && `${e.duplicated.length} printed twice (${list(e.duplicated)})`,
    e.outOfOrder.length && `${e.outOfOrder.length} out of order (${list(e.outOfOrder)})`,
  ].filter(Boolean);
  return `end to end: ${e.passed ? 'pass' : 'FAIL'}: ${e.printed} of ${e.published} published printed, ${e.excused} excused (before the first one printed, taken by a page change, after a lost token or its last request)${problems.length ? `; ${problems.join('; ')}` : ''}`;
}

/** One block per rule and client: the count, then the first examples with their requests. */
function findingBlock(rule: ExamRuleResult, finding: ExamRuleFinding, strict: boolean): string {
  const more = finding.count - finding.examples.length;
  return [
    `  ${rule.id} (${rule.level}${fails(rule, strict) ? '' : ', fails only with --strict'}), client ${finding.client}: ${finding.count} violation(s)`,
    `    rests on: "${rule.sentence}" (${rule.source})`,
    ...finding.examples.flatMap((v) => [`    ${v.message}`, ...v.requests.map((r) => `      ${formatEntry(r)}`)]),
    ...(more > 0 ? [`    ... and ${more} more like these (all in --report json)`] : []),
  ].join('\n');
}

/** The verdict, and why: never "passed" above a violation. */
export function lastLine(report: ExamReport): string {
  const command = report.commandExit.stoppedByExam
    ? 'the command was stopped at the end of the exam'
    : `the command exited with ${report.commandExit.code ?? report.commandExit.signal}`;
  if (report.verdict === 'passed') {
    const advice = report.rules.filter((r) => r.status === 'violated');
    return advice.length
      ? `exam: no contract or harm rule violated, ${advice.length} advice rule(s) not followed (${advice.map((r) => r.id).join(', ')}: they fail with --strict) (exit 0); ${command}`
      : `exam passed (exit 0); ${command}`;
  }
  if (report.error) return `exam ${report.verdict} (exit ${report.exitCode})`;
  return `exam ${report.verdict} (exit ${report.exitCode}): ${report.reasons.join('; ')}; ${command}`;
}

export function renderText(report: ExamReport): string {
  const lines = [
    `topics-emulator exam: ${report.command} (scenario ${report.plan.name}, ${report.plan.durationMs / 1000} s, messages ${report.messages})`,
  ];
  if (report.error) return `${[...lines, report.error, lastLine(report)].join('\n')}\n`;
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
  const violated = report.rules.filter((r) => r.status === 'violated');
  if (violated.length) {
    lines.push('', 'Violations', '');
    for (const rule of violated)
      for (const finding of rule.findings) lines.push(findingBlock(rule, finding, report.strict), '');
  }
  const count = (status: ExamRuleResult['status']) => report.rules.filter((r) => r.status === status).length;
  const c = report.counts;
  lines.push(
    '',
    `${count('passed')} passed, ${count('violated')} violated, ${count('not exercised')} not exercised; ${c.requests} requests (${c.polls} polls, ${c.publishes} publishes), ${c.throttled} 429s seen, ${c.retries} retries, ${c.discontinuities} discontinuities handled, ${c.itemsReceived} items received, ${report.linesPrinted} lines printed, in ${(report.durationMs / 1000).toFixed(1)} s`,
    lastLine(report),
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

/** The same content as the text report: a test case per rule (its findings), per step, and the end-to-end check. */
export function renderJunit(report: ExamReport): string {
  const cases = report.rules.map((r) => {
    const open = `    <testcase classname="topics-emulator-exam.${xml(r.id.split('.')[0]!)}" name="${xml(`${r.id}: ${r.title}`)}">`;
    if (r.status === 'not exercised') return `${open}\n      <skipped message="not exercised"/>\n    </testcase>`;
    if (r.status === 'passed') return `${open}</testcase>`;
    const body = xml(r.findings.map((f) => findingBlock(r, f, report.strict)).join('\n\n'));
    if (!fails(r, report.strict))
      return `${open}\n      <system-out>${xml('advice (fails only with --strict):\n')}${body}</system-out>\n    </testcase>`;
    const message = `${r.violationCount} violation(s): ${r.findings[0]!.examples[0]!.message}`;
    return `${open}\n      <failure message="${xml(message)}" type="${r.level}">${body}</failure>\n    </testcase>`;
  });
  for (const step of report.steps) {
    const open = `    <testcase classname="topics-emulator-exam.gauntlet" name="${xml(`${step.kind} at ${(step.atMs / 1000).toFixed(1)} s`)}">`;
    if (step.outcome === 'not met')
      cases.push(`${open}\n      <skipped message="${xml(`not met: ${step.note}`)}"/>\n    </testcase>`);
    else if (step.outcome === 'not recovered' && step.kind !== 'token-expiry')
      cases.push(`${open}\n      <failure message="${xml(step.note)}" type="not recovered"/>\n    </testcase>`);
    else cases.push(`${open}\n      <system-out>${xml(`${step.outcome}: ${step.note}`)}</system-out>\n    </testcase>`);
  }
  const e = report.endToEnd;
  const endToEnd = xml(endToEndLine(report));
  cases.push(
    `    <testcase classname="topics-emulator-exam.end-to-end" name="every message printed once, in order">${
      !e.exercised
        ? `\n      <skipped message="${endToEnd}"/>\n    </testcase>`
        : e.passed
          ? `\n      <system-out>${endToEnd}</system-out>\n    </testcase>`
          : `\n      <failure message="${endToEnd}" type="contract"/>\n    </testcase>`
    }`,
  );
  if (report.error)
    cases.push(
      `    <testcase classname="topics-emulator-exam.start" name="the command ran as a client">\n      <error message="${xml(report.error)}"/>\n    </testcase>`,
    );
  const failures = cases.filter((c) => c.includes('<failure')).length;
  const errors = cases.filter((c) => c.includes('<error')).length;
  const skipped = cases.filter((c) => c.includes('<skipped')).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="topics-emulator exam" tests="${cases.length}" failures="${failures}" errors="${errors}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="${xml(report.command)}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" timestamp="${report.startedAt}">`,
    `    <system-out>${xml(lastLine(report))}</system-out>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

export function renderJson(report: ExamReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
