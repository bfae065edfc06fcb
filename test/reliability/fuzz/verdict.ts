import { errorRegistry, isErrorCode } from '../../../emulator/errors.js';
import { contractProblem } from '../../helpers/contract.js';
import type { FuzzCase } from './cases.js';
import type { Answer } from './send.js';

// The invariants every answer of the fuzz run must keep, and the known deviations: answers
// that break them for a reason already reported (in /work/team/notes/reliability.md and
// findings.test.ts), tolerated here by a narrow match so that the run still catches
// anything new. Remove a deviation once its fix lands: findings.test.ts will say when.

export type Verdict = { ok: true; errorCode?: string; deviation?: string } | { ok: false; problem: string };

interface KnownDeviation {
  name: string;
  matches(c: FuzzCase, a: Answer): boolean;
}

const text = (a: Answer) => a.body.toString('utf8');

export const knownDeviations: KnownDeviation[] = [];

export function judge(c: FuzzCase, a: Answer): Verdict {
  const deviation = knownDeviations.find((d) => d.matches(c, a));
  if (deviation) return { ok: true, deviation: deviation.name };
  if (a.ending === 'timeout') return { ok: false, problem: 'no answer in time' };
  if (a.ending === 'closed') {
    // A request cut short (the client half-closed inside the body) may be dropped unanswered.
    if (c.framing === 'short') return { ok: true };
    // A trickled request the server answered early (an error, before or while reading the
    // body) and then closed: the client's next write draws a reset, which can discard the
    // answer before the client reads it. Node has no lingering close (see the reliability
    // notes); fetch, which reads while it writes, does get such answers (the 10 MB case in
    // fuzz/suite.ts). The same requests untrickled must be answered.
    if (c.trickle) return { ok: true };
    return { ok: false, problem: 'connection closed without an answer' };
  }
  if (a.status >= 500) return { ok: false, problem: `status ${a.status}: ${text(a).slice(0, 200)}` };
  const contentType = a.headers['content-type'] ?? '';
  if (a.status === 200 && /"items"/.test(text(a)) && c.method === 'GET') {
    const problem = contractProblem('subscribe', 200, contentType, text(a));
    return problem
      ? { ok: false, problem: `subscribe 200 breaks the contract: ${problem}: ${text(a).slice(0, 200)}` }
      : { ok: true };
  }
  if (a.status < 400) return { ok: true };
  if (!/^application\/json/.test(contentType))
    return { ok: false, problem: `error ${a.status} with content-type '${contentType}': ${text(a).slice(0, 200)}` };
  if (c.method === 'HEAD') return { ok: true }; // no body to read
  let body: unknown;
  try {
    body = JSON.parse(text(a));
  } catch {
    return { ok: false, problem: `error ${a.status} body is not JSON: ${text(a).slice(0, 200)}` };
  }
  const { code, message, ...rest } = (body ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || typeof message !== 'string' || Object.keys(rest).length > 0) {
    return { ok: false, problem: `error ${a.status} body is not {code, message}: ${text(a).slice(0, 200)}` };
  }
  if (!isErrorCode(code)) return { ok: false, problem: `error code '${code}' is not in the registry` };
  if (errorRegistry[code].status !== a.status)
    return {
      ok: false,
      problem: `code '${code}' answered with ${a.status}, the registry says ${errorRegistry[code].status}`,
    };
  return { ok: true, errorCode: code };
}
