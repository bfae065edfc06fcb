import type { PublishEvent, ReadEvent, RunEvent } from './events.js';
import type { Anomaly, CheckResult } from './checks/index.js';

// The history's verdict: one line per anomaly kind with its count, and for each kind found its
// earliest witness (the publish, the subscriber, the answers around it, curl lines that replay
// those reads with $TOKEN). Text for people, JSON and JUnit for CI. Exit 0 clean, 1 anomalies.

export interface HistoryReport {
  run: RunEvent | undefined;
  strict: boolean;
  events: number;
  results: CheckResult[];
  exitCode: 0 | 1;
}

export function historyReport(run: RunEvent | undefined, strict: boolean, events: number, results: CheckResult[]) {
  const exitCode: 0 | 1 = results.some((r) => r.failing) ? 1 : 0;
  return { run, strict, events, results, exitCode } satisfies HistoryReport;
}

const time = (ms: number) => new Date(ms).toISOString().slice(11, 23);

function describePublish(p: PublishEvent): string {
  return `publish ${p.publisher} ${JSON.stringify(p.payload)}: sent ${time(p.sentAt)}, answered ${time(p.answeredAt)} ${p.status ?? p.error ?? 'no answer'}`;
}

function describeRead(r: ReadEvent): string {
  const elements = r.elements
    .map((e) => (e.kind === 'item' ? `${e.n}@${e.page}=${e.payload}` : `discontinuity(${e.last}->${e.next}@${e.page})`))
    .join(', ');
  return `read ${r.subscriber} at ${r.cursor.n}/${r.cursor.page}: sent ${time(r.sentAt)}, answered ${time(r.answeredAt)} ${r.status ?? r.error ?? 'no answer'} [${elements}]`;
}

/** A curl line that sends the read again ($TOKEN: the token, exported first). */
export function replayCurl(run: RunEvent | undefined, read: ReadEvent): string {
  const base = run?.baseUrls[read.target] ?? '$BASE_URL';
  const path = run
    ? `/topics/${encodeURIComponent(run.cache)}/${encodeURIComponent(run.topic)}`
    : '/topics/$CACHE/$TOPIC';
  return `curl -sS --max-time 10 -H "Authorization: $TOKEN" '${base.replace(/\/+$/, '')}${path}?sequence_number=${read.cursor.n}&sequence_page=${read.cursor.page}'`;
}

export function witnessLines(run: RunEvent | undefined, anomaly: Anomaly): string[] {
  return [
    anomaly.message,
    ...(anomaly.publish ? [describePublish(anomaly.publish)] : []),
    ...anomaly.reads.map(describeRead),
    ...anomaly.reads.map((r) => replayCurl(run, r)),
  ];
}

export function renderText(report: HistoryReport): string {
  const lines: string[] = [];
  const run = report.run;
  if (run)
    lines.push(
      `History of ${run.cache}/${run.topic} on ${run.baseUrls.join(', ')}: ${run.publishers} publishers, ${run.subscribers} subscribers, ${report.events} events; ${report.strict ? "the emulator's promise (--strict)" : 'the live service (best-effort delivery warns)'}`,
      '',
    );
  for (const { check, anomalies, failing } of report.results) {
    const verdict = anomalies.length === 0 ? 'ok' : failing ? 'FAIL' : 'warn';
    lines.push(`${verdict.padEnd(4)} ${check.kind.padEnd(20)} ${String(anomalies.length).padStart(6)}  ${check.finds}`);
  }
  for (const { check, anomalies, failing } of report.results) {
    if (anomalies.length === 0) continue;
    lines.push(
      '',
      `${check.kind} (${anomalies.length}${failing ? '' : ', a warning: best-effort delivery'}): ${check.source}`,
    );
    lines.push(...witnessLines(run, anomalies[0]!).map((l) => `  ${l}`));
  }
  lines.push('', report.exitCode === 0 ? 'No anomalies counted against the endpoint.' : 'Anomalies found.');
  return `${lines.join('\n')}\n`;
}

export function renderJson(report: HistoryReport): string {
  return `${JSON.stringify(
    {
      run: report.run,
      strict: report.strict,
      events: report.events,
      exitCode: report.exitCode,
      checks: report.results.map(({ check, anomalies, failing }) => ({
        kind: check.kind,
        severity: check.severity,
        source: check.source,
        count: anomalies.length,
        failing,
        witness:
          anomalies[0] === undefined
            ? null
            : { ...anomalies[0], curl: anomalies[0].reads.map((r) => replayCurl(report.run, r)) },
      })),
    },
    null,
    2,
  )}\n`;
}

const xml = (text: string) =>
  text
    // eslint-disable-next-line no-control-regex -- control characters are what this replaces
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

export function renderJunit(report: HistoryReport): string {
  const cases = report.results.map(({ check, anomalies, failing }) => {
    const open = `    <testcase classname="topics-conformance.history" name="${xml(check.kind)}">`;
    if (anomalies.length === 0) return `${open}</testcase>`;
    const body = xml([check.source, ...witnessLines(report.run, anomalies[0]!)].join('\n'));
    return failing
      ? `${open}\n      <failure message="${xml(`${anomalies.length} ${check.kind}`)}" type="${check.severity}">${body}</failure>\n    </testcase>`
      : `${open}\n      <system-out>${body}</system-out>\n    </testcase>`;
  });
  const failures = report.results.filter((r) => r.failing).length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n  <testsuite name="topics-conformance.history" tests="${report.results.length}" failures="${failures}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}
