// A stream history: every publish and every subscribe answer of a `topics-conformance history`
// run, one JSON object a line (JSON Lines, `--history FILE`), checkable later (`--check FILE`).
// Times are milliseconds since the epoch, with sub-millisecond precision. Payloads are
// self-describing (`h/<run>/<publisher>/<index>`), so a delivered value names its publish.

/** The run's set-up: which endpoints (credentials never written), which topic, which options. */
export interface RunEvent {
  type: 'run';
  version: 1;
  baseUrls: string[];
  cache: string;
  topic: string;
  publishers: number;
  subscribers: number;
  startedAt: number;
  /** The emulator's stronger promise checked (`--strict`), or the live service's best effort. */
  strict: boolean;
}

export interface PublishEvent {
  type: 'publish';
  publisher: string;
  /** Index into the run's baseUrls. */
  target: number;
  payload: string;
  sentAt: number;
  answeredAt: number;
  /** The answer's status; null when none came (network error, timeout). */
  status: number | null;
  error?: string;
}

export type HistoryElement =
  | { kind: 'item'; n: number; page: number; payload: string }
  | { kind: 'discontinuity'; last: number; next: number; page: number };

export interface ReadEvent {
  type: 'read';
  subscriber: string;
  target: number;
  /** The cursor sent: sequence_number and sequence_page (0 and 0 on a first read). */
  cursor: { n: number; page: number };
  sentAt: number;
  answeredAt: number;
  status: number | null;
  error?: string;
  elements: HistoryElement[];
}

/** A page change the run asked of an emulator's control plane (`--page-changes`). */
export interface PageChangeEvent {
  type: 'page-change';
  target: number;
  sentAt: number;
  answeredAt: number;
  status: number | null;
}

export type HistoryEvent = RunEvent | PublishEvent | ReadEvent | PageChangeEvent;

/** An acknowledged publish: the contract's success answer. */
export const acknowledged = (publish: PublishEvent): boolean => publish.status === 204 || publish.status === 200;

/** One line of JSON Lines, or a description of what is wrong with it. */
export function parseLine(line: string): HistoryEvent | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  const type = (value as { type?: unknown } | null)?.type;
  if (type !== 'run' && type !== 'publish' && type !== 'read' && type !== 'page-change')
    return `no known "type" (run, publish, read, page-change)`;
  if (type === 'read' && !Array.isArray((value as { elements?: unknown }).elements)) return 'a read without "elements"';
  if (type === 'publish' && typeof (value as { payload?: unknown }).payload !== 'string')
    return 'a publish without a string "payload"';
  return value as HistoryEvent;
}
