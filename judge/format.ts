import type { JournalEntry } from '../openapi/generated/control-types.js';
import type { ClientFindings, ClientViolation } from '../openapi/generated/control-types.js';

// Findings as text a person reads in a terminal or a failed test: each violation with its rule,
// level, the sentence it rests on, and the requests that show it, one line each.

function answerOf(entry: JournalEntry): string {
  if (entry.dropped) return 'dropped by the emulator';
  if (entry.clientGone) return 'client went away';
  const parts = [String(entry.status)];
  if (entry.code) parts.push(entry.code);
  if (entry.retryAfterSeconds !== null) parts.push(`Retry-After ${entry.retryAfterSeconds}`);
  if (entry.discontinuity)
    parts.push(
      `discontinuity to ${entry.discontinuity.newTopicSequence} on page ${entry.discontinuity.newSequencePage}`,
    );
  if (entry.items.length)
    parts.push(
      `items ${entry.items.length > 4 ? `${entry.items[0]}..${entry.items.at(-1)}` : entry.items.join(',')} on page ${entry.page}`,
    );
  else if (entry.status === 200 && !entry.discontinuity) parts.push('no items');
  return parts.join(' ');
}

/** One journal entry on one line: `#12 10:04:05.120 subscribe c/t 5@7 -> 429 limit_exceeded Retry-After 1 (2 ms)`. */
export function formatEntry(entry: JournalEntry): string {
  const time = new Date(entry.at).toISOString().slice(11, 23);
  const cursor =
    entry.operation === 'subscribe'
      ? entry.cursor
        ? ` ${entry.cursor.sequenceNumber}@${entry.cursor.sequencePage}`
        : ' (no cursor)'
      : '';
  const target = entry.cache ? ` ${entry.cache}/${entry.topic}` : ` ${entry.path}`;
  return `#${entry.id} ${time} ${entry.operation ?? entry.method}${target}${cursor} -> ${answerOf(entry)} (${Math.round(entry.durationMs)} ms)`;
}

export function formatViolation(violation: ClientViolation, indent = ''): string {
  return [
    `${indent}${violation.rule} (${violation.level}): ${violation.message}`,
    `${indent}  rests on: "${violation.sentence}" (${violation.source})`,
    ...violation.requests.map((r) => `${indent}    ${formatEntry(r)}`),
  ].join('\n');
}

/** Every violation of every client, grouped by client; empty when there is none. */
export function formatFindings(clients: readonly ClientFindings[]): string {
  return clients
    .filter((c) => c.violations.length > 0)
    .map((c) => [`client ${c.client}:`, ...c.violations.map((v) => formatViolation(v, '  '))].join('\n'))
    .join('\n');
}
