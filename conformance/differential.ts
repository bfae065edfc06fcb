// Differential mode: the same seeded run against two targets (say the emulator and
// staging), compared rule by rule and request by request. What may legitimately differ
// is normalised away first: topic names, page values, tokens, error messages.
import { decodeElements } from './elements.js';
import { mediaType, type Exchange } from './exchange.js';
import { valueKey } from './model.js';
import type { ConformanceOptions } from './options.js';
import type { ConformanceReport, RuleStatus } from './report.js';
import { executeConformance, type ExecutedRun } from './run.js';

export interface RuleDifference {
  id: string;
  a: RuleStatus;
  b: RuleStatus;
}

export interface RequestDifference {
  rule: string;
  /** The request, normalised: `GET /topics/<cache>/<auth.both-400> ?sequence_number=0&sequence_page=P0&token=<token>` */
  request: string;
  a: string;
  b: string;
}

export interface DifferentialReport {
  a: ConformanceReport;
  b: ConformanceReport;
  rules: RuleDifference[];
  requests: RequestDifference[];
  /** Requests compared (sent the same way to both). */
  compared: number;
  /** Requests sent to only one of the two. */
  unmatched: number;
  exitCode: 0 | 1;
}

/** Concurrent scenarios interleave differently on every target: compared by outcome only. */
const CONCURRENT = new Set(['stream', 'control-stream', 'preflight']);

class Normalizer {
  private readonly pages = new Map<string, string>();

  constructor(private readonly run: ExecutedRun) {}

  /** Pages are named in the order this target first showed them, per topic: P1, P2, ... (P0 is "unsure"). */
  page(topic: string, page: number): string {
    if (page === 0) return 'P0';
    const key = `${topic}#${page}`;
    if (!this.pages.has(key))
      this.pages.set(key, `P${[...this.pages.keys()].filter((k) => k.startsWith(`${topic}#`)).length + 1}`);
    return this.pages.get(key)!;
  }

  private topicOf(exchange: Exchange): string {
    return new URL(exchange.url).pathname.split('/')[3] ?? '';
  }

  /** The suite's own names (run id, topic counters) inside a value, made equal across runs. */
  ownNames(text: string): string {
    return text.replace(new RegExp(`conformance-${this.run.options.runId}(?:-\\d+)?`, 'g'), '<run>');
  }

  request(exchange: Exchange): string {
    const url = new URL(exchange.url);
    const { runId, cache, missingCache } = this.run.options;
    const topic = this.topicOf(exchange);
    const path = url.pathname
      .split('/')
      .map((segment) => {
        const decoded = decodeURIComponent(segment);
        if (decoded === cache) return '<cache>';
        if (decoded === missingCache) return '<missing-cache>';
        return decoded
          .replace(new RegExp(`^conformance-${runId}-\\d+-`), '<topic:')
          .replace(/^<topic:.*$/, (t) => `${t}>`);
      })
      .join('/');
    const query = [...url.searchParams.entries()]
      .map(
        ([name, value]) =>
          `${name}=${name === 'token' ? '<token>' : name === 'sequence_page' ? this.page(topic, Number(value)) : value}`,
      )
      .join('&');
    const auth = exchange.requestHeaders.authorization !== undefined ? ' [Authorization]' : '';
    const body = exchange.requestBody
      ? ` body ${exchange.requestBody.length} bytes ${exchange.requestHeaders['content-type'] ?? '(no type)'}`
      : '';
    return `${exchange.method} ${path}${query ? `?${query}` : ''}${auth}${body}`;
  }

  response(exchange: Exchange): string {
    if (exchange.status === undefined)
      return exchange.error === 'timeout' ? 'no answer (still waiting)' : `no answer (${exchange.error})`;
    if (exchange.status === 200 && exchange.operation === 'subscribe') {
      const topic = this.topicOf(exchange);
      const elements = decodeElements(exchange.json);
      if (!elements) return `200 ${mediaType(exchange)} without items`;
      const shown = elements.map((e) => {
        // Values the suite made carry its run id: that part differs by design.
        if (e.kind === 'item')
          return `item(${this.page(topic, e.page)},${e.n},${this.ownNames(valueKey(e.value)).slice(0, 48)})`;
        if (e.kind === 'discontinuity')
          return `discontinuity(last ${e.last}, next ${e.next}, ${this.page(topic, e.page)})`;
        return 'malformed';
      });
      return `200 [${shown.join(', ')}]`;
    }
    // Error bodies are not published for the live service: compare the status only.
    return String(exchange.status);
  }
}

function comparable(run: ExecutedRun): Map<string, { rule: string; request: string; response: string }> {
  const normalizer = new Normalizer(run);
  const out = new Map<string, { rule: string; request: string; response: string }>();
  const ordinal = new Map<string, number>();
  for (const exchange of run.exchanges) {
    if (CONCURRENT.has(exchange.rule) || exchange.operation === 'control' || exchange.operation === 'health') continue;
    // Nudges depend on timing, not on behaviour.
    if (exchange.requestBody && Buffer.from(exchange.requestBody).toString('utf8').includes('-nudge-')) continue;
    const request = normalizer.request(exchange);
    const key = `${exchange.rule} ${request}`;
    const n = (ordinal.get(key) ?? 0) + 1;
    ordinal.set(key, n);
    out.set(`${key} #${n}`, { rule: exchange.rule, request, response: normalizer.response(exchange) });
  }
  return out;
}

export async function runDifferential(a: ConformanceOptions, b: ConformanceOptions): Promise<DifferentialReport> {
  const seed = a.seed ?? b.seed ?? Math.floor(Math.random() * 2 ** 31);
  const first = await executeConformance({ ...a, seed });
  const second = await executeConformance({ ...b, seed, rules: a.rules ?? b.rules ?? [] });
  const rules: RuleDifference[] = [];
  for (const rule of first.report.rules) {
    const other = second.report.rules.find((r) => r.id === rule.id);
    if (other && other.status !== rule.status) rules.push({ id: rule.id, a: rule.status, b: other.status });
  }
  const left = comparable(first);
  const right = comparable(second);
  const requests: RequestDifference[] = [];
  let compared = 0;
  for (const [key, x] of left) {
    const y = right.get(key);
    if (!y) continue;
    compared += 1;
    if (x.response !== y.response) requests.push({ rule: x.rule, request: x.request, a: x.response, b: y.response });
  }
  const unmatched =
    [...left.keys()].filter((k) => !right.has(k)).length + [...right.keys()].filter((k) => !left.has(k)).length;
  const exitCode =
    rules.length > 0 || requests.length > 0 || first.report.exitCode !== 0 || second.report.exitCode !== 0 ? 1 : 0;
  return { a: first.report, b: second.report, rules, requests, compared, unmatched, exitCode };
}

export function renderDifferential(report: DifferentialReport): string {
  const lines = [
    `differential run, seed ${report.a.seed}`,
    `  A: ${report.a.target.baseUrl} (cache ${report.a.target.cache}): ${report.a.summary.passed} passed, ${report.a.summary.failed} failed, ${report.a.summary.warning} warning(s), ${report.a.summary.skipped} skipped`,
    `  B: ${report.b.target.baseUrl} (cache ${report.b.target.cache}): ${report.b.summary.passed} passed, ${report.b.summary.failed} failed, ${report.b.summary.warning} warning(s), ${report.b.summary.skipped} skipped`,
    '',
  ];
  if (report.rules.length > 0) {
    lines.push('Rules with different outcomes:');
    for (const rule of report.rules) lines.push(`  ${rule.id.padEnd(42)} A ${rule.a.padEnd(8)} B ${rule.b}`);
    lines.push('');
  }
  if (report.requests.length > 0) {
    lines.push('Requests answered differently (normalised: topics, pages, tokens, error messages):');
    for (const diff of report.requests.slice(0, 60)) {
      lines.push(`  [${diff.rule}] ${diff.request}`, `      A: ${diff.a}`, `      B: ${diff.b}`);
    }
    if (report.requests.length > 60) lines.push(`  (${report.requests.length - 60} more)`);
    lines.push('');
  }
  lines.push(
    `${report.rules.length} rule(s) and ${report.requests.length} of ${report.compared} request(s) differ; ${report.unmatched} request(s) sent to only one target`,
  );
  return `${lines.join('\n')}\n`;
}
