import type { StreamEvent } from './clients.js';

// What a subscriber's stream must look like. Each check returns the problems it found (empty
// when the stream is right), naming the first few, so a failure says what was lost or repeated.

function firstFew(problems: string[]): string[] {
  return problems.length > 5 ? [...problems.slice(0, 5), `... and ${problems.length - 5} more`] : problems;
}

/**
 * A subscriber that kept up: on each page, numbers 1, 2, 3, ... with no gap; a discontinuity
 * only at a page change (to `pages`, in order, resuming at 1, with the last number it had);
 * every acknowledged message exactly once; each publisher's messages in the order it sent them.
 */
export function keptUpProblems(
  events: StreamEvent[],
  ackedByPublisher: string[][],
  pages: number[] | undefined,
): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const visited: number[] = [];
  let page: number | undefined;
  let next = 1;
  for (const event of events) {
    if (event.kind === 'discontinuity') {
      if (page === undefined || event.page === page)
        problems.push(`discontinuity without a page change: ${JSON.stringify(event)}`);
      else if (event.next !== 1 || event.last !== next - 1)
        problems.push(
          `page change to ${event.page} says last ${event.last}, next ${event.next}; expected last ${next - 1}, next 1`,
        );
      page = event.page;
      visited.push(page);
      next = 1;
      continue;
    }
    if (page === undefined) {
      page = event.page;
      visited.push(page);
    }
    if (event.page !== page)
      problems.push(`item ${event.seq} on page ${event.page} while on page ${page}, with no discontinuity`);
    if (event.seq !== next) problems.push(`item ${event.seq} where ${next} was next (page ${event.page})`);
    if (seen.has(event.text)) problems.push(`message ${event.text} delivered twice`);
    seen.add(event.text);
    next = event.seq + 1;
  }
  if (pages && JSON.stringify(visited) !== JSON.stringify(pages))
    problems.push(`went through pages ${visited.join(', ')}; the topic had ${pages.join(', ')}`);
  const acked = new Set(ackedByPublisher.flat());
  const missing = [...acked].filter((text) => !seen.has(text));
  if (missing.length)
    problems.push(`${missing.length} acknowledged messages never delivered, e.g. ${missing.slice(0, 3).join(', ')}`);
  const unacked = [...seen].filter((text) => !acked.has(text));
  if (unacked.length)
    problems.push(
      `${unacked.length} delivered messages were never acknowledged, e.g. ${unacked.slice(0, 3).join(', ')}`,
    );
  const order = new Map(events.flatMap((e, i) => (e.kind === 'item' ? [[e.text, i] as const] : [])));
  for (const [id, texts] of ackedByPublisher.entries()) {
    const positions = texts.map((t) => order.get(t)).filter((i): i is number => i !== undefined);
    if (positions.some((p, i) => i > 0 && p < positions[i - 1]!))
      problems.push(`publisher ${id}'s messages arrived out of order`);
  }
  return firstFew(problems);
}

/**
 * A subscriber that fell behind on one page: every number of the page is either delivered
 * (with the same message as `reference` has at that number) or inside a discontinuity that
 * names exactly the numbers skipped; nothing is skipped silently.
 */
export function fellBehindProblems(
  events: StreamEvent[],
  reference: Map<number, string>,
  lastNumber: number,
): { problems: string[]; skipped: number; discontinuities: number } {
  const problems: string[] = [];
  let next = 1;
  let skipped = 0;
  let discontinuities = 0;
  for (const event of events) {
    if (event.kind === 'discontinuity') {
      discontinuities += 1;
      if (event.last !== next - 1)
        problems.push(`discontinuity says last ${event.last}, but ${next - 1} was the last delivered`);
      if (event.next <= next) problems.push(`discontinuity resumes at ${event.next}, not past ${next - 1}`);
      skipped += event.next - next;
      next = event.next;
      continue;
    }
    if (event.seq !== next) problems.push(`item ${event.seq} where ${next} was next, with no discontinuity`);
    if (reference.get(event.seq) !== event.text)
      problems.push(`item ${event.seq} is ${event.text}; the topic had ${reference.get(event.seq)} there`);
    next = event.seq + 1;
  }
  if (next !== lastNumber + 1) problems.push(`stopped at ${next - 1}, the topic reached ${lastNumber}`);
  return { problems: firstFew(problems), skipped, discontinuities };
}
