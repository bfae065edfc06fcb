import fc from 'fast-check';
import { Pool } from 'undici';
import { controlCases, fuzzCases, type FuzzCase, type Secrets } from './cases.js';
import { send, type Answer } from './send.js';
import { judge } from './verdict.js';

// Runs fuzz cases against an emulator until a request count or a time budget is used up,
// several at a time, and keeps the figures: requests tried, statuses, error codes seen,
// known deviations met, and every broken invariant (the first few with their request).

export interface FuzzBudget {
  requests: number;
  ms: number;
  concurrency: number;
  seed: number;
}

export interface Violation {
  problem: string;
  request: {
    method: string;
    target: string;
    headers: [string, string][];
    body: string;
    framing: string;
    trickle: boolean;
  };
  answer: { transport: string; ending: string; status: number };
}

export interface FuzzFigures {
  requests: number;
  elapsedMs: number;
  byTransport: Record<string, number>;
  statuses: Record<string, number>;
  errorCodes: string[];
  deviations: Record<string, number>;
  fiveHundreds: number;
  unanswered: number;
  violations: number;
  firstViolations: Violation[];
}

function describe(c: FuzzCase, a: Answer, problem: string): Violation {
  return {
    problem,
    request: {
      method: c.method,
      target: c.target.slice(0, 300),
      headers: c.headers.map(([n, v]) => [n, v.slice(0, 100)]),
      body: c.body.subarray(0, 100).toString('latin1'),
      framing: c.framing,
      trickle: c.trickle,
    },
    answer: { transport: a.transport, ending: a.ending, status: a.status },
  };
}

async function runCases(
  url: string,
  cases: (batch: number) => FuzzCase[],
  budget: FuzzBudget,
  timeoutMs: number,
): Promise<FuzzFigures> {
  const port = Number(new URL(url).port);
  const pool = new Pool(url, { connections: budget.concurrency, pipelining: 1 });
  const figures: FuzzFigures = {
    requests: 0,
    elapsedMs: 0,
    byTransport: {},
    statuses: {},
    errorCodes: [],
    deviations: {},
    fiveHundreds: 0,
    unanswered: 0,
    violations: 0,
    firstViolations: [],
  };
  const codes = new Set<string>();
  const started = Date.now();
  let queue: FuzzCase[] = [];
  let batch = 0;
  const next = (): FuzzCase | undefined => {
    if (figures.requests >= budget.requests || Date.now() - started >= budget.ms) return undefined;
    if (queue.length === 0) queue = cases(batch++);
    figures.requests += 1;
    return queue.pop();
  };
  const worker = async () => {
    for (let c = next(); c !== undefined; c = next()) {
      const answer = await send(pool, port, c, timeoutMs);
      figures.byTransport[answer.transport] = (figures.byTransport[answer.transport] ?? 0) + 1;
      const status = answer.ending === 'answered' ? String(answer.status) : answer.ending;
      figures.statuses[status] = (figures.statuses[status] ?? 0) + 1;
      if (answer.status >= 500) figures.fiveHundreds += 1;
      if (answer.ending !== 'answered') figures.unanswered += 1;
      const verdict = judge(c, answer);
      if (verdict.ok) {
        if (verdict.errorCode) codes.add(verdict.errorCode);
        if (verdict.deviation) figures.deviations[verdict.deviation] = (figures.deviations[verdict.deviation] ?? 0) + 1;
      } else {
        figures.violations += 1;
        if (figures.firstViolations.length < 10) figures.firstViolations.push(describe(c, answer, verdict.problem));
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: budget.concurrency }, worker));
  } finally {
    await pool.close();
  }
  figures.elapsedMs = Date.now() - started;
  figures.errorCodes = [...codes].sort();
  return figures;
}

/** Service and control routes, without the admin key: nothing may change the seeded topics. */
export function fuzzService(
  url: string,
  secrets: Secrets,
  payloadLimit: number,
  budget: FuzzBudget,
  timeoutMs = 10_000,
): Promise<FuzzFigures> {
  const arbitrary = fuzzCases(secrets, payloadLimit);
  return runCases(url, (batch) => fc.sample(arbitrary, { seed: budget.seed + batch, numRuns: 256 }), budget, timeoutMs);
}

/** The control plane's operations with the admin key and bodies shaped like their inputs. */
export function fuzzControlPlane(
  url: string,
  adminKey: string,
  budget: FuzzBudget,
  timeoutMs = 10_000,
): Promise<FuzzFigures> {
  const arbitrary = controlCases();
  const toCase = ({ method, path, body }: { method: string; path: string; body: unknown }): FuzzCase => ({
    method,
    target: path,
    headers: [
      ['X-Emulator-Admin-Key', adminKey],
      ...(body === undefined ? [] : ([['Content-Type', 'application/json']] as [string, string][])),
    ],
    body: body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body)),
    framing: 'length',
    trickle: false,
  });
  return runCases(
    url,
    (batch) => fc.sample(arbitrary, { seed: budget.seed + batch, numRuns: 256 }).map(toCase),
    budget,
    timeoutMs,
  );
}

/** One line: requests, 5xx, crashes, distinct error codes, known deviations. */
export function fuzzSummary(figures: FuzzFigures, crashes: number): string {
  const deviations = Object.values(figures.deviations).reduce((a, b) => a + b, 0);
  return (
    `${figures.requests} requests in ${(figures.elapsedMs / 1000).toFixed(1)} s, ${figures.fiveHundreds} 5xx, ${crashes} crashes, ` +
    `${figures.errorCodes.length} distinct error codes, ${figures.violations} broken invariants, ` +
    `${Object.keys(figures.deviations).length} known deviations (${deviations} requests)`
  );
}
