// The end-to-end check: what the client printed against what the exam published. Each message
// printed once, in order, nothing missing beyond what the exam excuses: what was published
// before the first message the client printed (a first request waits for the next message
// published after it is in place, which the exam cannot time exactly), the tail of a
// page a page change took before the client got to it, what came after a token expiry
// the client did not recover from, and what came after its last request (a client that
// stopped early is not judged on what it was gone for: the steps it never met say so).

export interface PublishedMessage {
  n: number;
  /** Clock ms when its publish was sent (so "before the first poll" errs towards excusing). */
  at: number;
}

export interface EndToEndInput {
  published: readonly PublishedMessage[];
  /** The numbers of the exam's messages the client printed, in order. */
  printed: readonly number[];
  pageChangesAt: readonly number[];
  /** When the client lost its token for good, if it did. */
  tokenLostAt: number | null;
  /** When the client's last request ended: what was published after it never reached the client. */
  lastRequestEndedAt?: number | null;
}

export interface EndToEndResult {
  /** False when the client printed none of the exam's messages: the check did not run. */
  exercised: boolean;
  published: number;
  /** How many of the published messages were printed (each counted once). */
  printed: number;
  missing: number[];
  duplicated: number[];
  outOfOrder: number[];
  excused: number;
  passed: boolean;
}

export function checkEndToEnd(input: EndToEndInput): EndToEndResult {
  const { published, printed } = input;
  const seen = new Map<number, number>();
  const outOfOrder: number[] = [];
  printed.forEach((n, i) => {
    seen.set(n, (seen.get(n) ?? 0) + 1);
    if (i > 0 && n <= printed[i - 1]! && seen.get(n) === 1) outOfOrder.push(n);
  });
  const duplicated = [...seen].filter(([, count]) => count > 1).map(([n]) => n);
  const printedSet = new Set(printed);
  const excusedBy = (m: PublishedMessage): boolean => {
    if (printed.length === 0 || m.n < printed[0]!) return true;
    if (input.tokenLostAt !== null && m.at >= input.tokenLostAt) return true;
    if (input.lastRequestEndedAt != null && m.at >= input.lastRequestEndedAt) return true;
    // The tail of a page: a page change after it, and the client had got no further on that page.
    return input.pageChangesAt.some(
      (change) =>
        change > m.at && !published.some((later) => later.n > m.n && later.at < change && printedSet.has(later.n)),
    );
  };
  let excused = 0;
  const missing: number[] = [];
  for (const m of published) {
    if (printedSet.has(m.n)) continue;
    if (excusedBy(m)) excused++;
    else missing.push(m.n);
  }
  const exercised = printed.length > 0;
  return {
    exercised,
    published: published.length,
    printed: published.filter((m) => printedSet.has(m.n)).length,
    missing,
    duplicated,
    outOfOrder,
    excused,
    passed: !exercised || (missing.length === 0 && duplicated.length === 0 && outOfOrder.length === 0),
  };
}
