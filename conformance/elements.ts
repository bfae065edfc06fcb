// A subscribe answer's `items`, decoded once into typed elements for the checks and the
// model. Anything that is not exactly one `item` or one `discontinuity` with integer
// fields becomes 'malformed' (its own rule reports it; the stream checks skip it).

/** A message value; a delivered binary one keeps the string it came as (`encoded`). */
export type MessageValue = { kind: 'text'; text: string } | { kind: 'binary'; bytes: Uint8Array; encoded?: string };

/** A delivered value; 'opaque' when a binary member is not standard base64. */
export type DeliveredValue = MessageValue | { kind: 'opaque'; raw: unknown };

export type Element =
  | { kind: 'item'; index: number; page: number; n: number; value: DeliveredValue }
  | { kind: 'discontinuity'; index: number; last: number; next: number; page: number }
  | { kind: 'malformed'; index: number; reason: string; raw: unknown };

export type Item = Extract<Element, { kind: 'item' }>;
export type Discontinuity = Extract<Element, { kind: 'discontinuity' }>;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Standard base64 (RFC 4648, padded) to bytes; undefined when it is not exactly that. */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (!BASE64.test(text)) return undefined;
  return new Uint8Array(Buffer.from(text, 'base64'));
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isCounter = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

function decodeValue(raw: unknown): DeliveredValue | string {
  if (!isRecord(raw)) return 'value is not an object';
  if (typeof raw.text === 'string') return { kind: 'text', text: raw.text };
  if (typeof raw.binary === 'string') {
    const bytes = decodeBase64(raw.binary);
    return bytes ? { kind: 'binary', bytes, encoded: raw.binary } : { kind: 'opaque', raw };
  }
  return { kind: 'opaque', raw };
}

function decodeElement(raw: unknown, index: number): Element {
  if (!isRecord(raw)) return { kind: 'malformed', index, reason: 'element is not an object', raw };
  const hasItem = 'item' in raw;
  const hasDiscontinuity = 'discontinuity' in raw;
  if (hasItem === hasDiscontinuity) {
    const reason = hasItem
      ? 'element holds both item and discontinuity'
      : 'element holds neither item nor discontinuity';
    return { kind: 'malformed', index, reason, raw };
  }
  if (hasItem) {
    const item = raw.item;
    if (!isRecord(item) || !isCounter(item.sequence_page) || !isCounter(item.topic_sequence_number)) {
      return { kind: 'malformed', index, reason: 'item lacks integer sequence_page / topic_sequence_number', raw };
    }
    const value = decodeValue(item.value);
    if (typeof value === 'string') return { kind: 'malformed', index, reason: value, raw };
    return { kind: 'item', index, page: item.sequence_page, n: item.topic_sequence_number, value };
  }
  const d = raw.discontinuity;
  if (
    !isRecord(d) ||
    !isCounter(d.last_topic_sequence) ||
    !isCounter(d.new_topic_sequence) ||
    !isCounter(d.new_sequence_page)
  ) {
    return { kind: 'malformed', index, reason: 'discontinuity lacks integer fields', raw };
  }
  return {
    kind: 'discontinuity',
    index,
    last: d.last_topic_sequence,
    next: d.new_topic_sequence,
    page: d.new_sequence_page,
  };
}

/** The elements of a subscribe body, or undefined when there is no `items` array. */
export function decodeElements(body: unknown): Element[] | undefined {
  if (!isRecord(body) || !Array.isArray(body.items)) return undefined;
  return body.items.map((raw, index) => decodeElement(raw, index));
}

/**
 * Other readings of a binary string (hex, base64url, unpadded base64), to tell "another
 * representation of the right bytes" (observed) from "the wrong bytes" (documented).
 */
export function otherEncodings(encoded: string): Uint8Array[] {
  const readings: Uint8Array[] = [];
  if (/^(?:[0-9a-fA-F]{2})*$/.test(encoded)) readings.push(new Uint8Array(Buffer.from(encoded, 'hex')));
  if (/^[A-Za-z0-9_-]*$/.test(encoded)) readings.push(new Uint8Array(Buffer.from(encoded, 'base64url')));
  if (/^[A-Za-z0-9+/]*$/.test(encoded)) readings.push(new Uint8Array(Buffer.from(encoded, 'base64')));
  return readings;
}

export function sameValue(a: DeliveredValue, b: DeliveredValue): boolean {
  if (a.kind === 'text' && b.kind === 'text') return a.text === b.text;
  if (a.kind === 'binary' && b.kind === 'binary') return Buffer.from(a.bytes).equals(Buffer.from(b.bytes));
  if (a.kind === 'opaque' && b.kind === 'opaque') return JSON.stringify(a.raw) === JSON.stringify(b.raw);
  return false;
}

/** Invisible and direction-changing characters as \u escapes, so a report shows every character. */
function printable(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-misleading-character-class -- combining invisible characters (U+034F) are listed on purpose
    /[\u007f-\u00a0\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufe00-\ufe0f\ufeff\ufff0-\uffff]|\p{Cs}|\p{Co}|\p{Cn}/gu,
    (c) =>
      c.codePointAt(0)! > 0xffff
        ? `\\u{${c.codePointAt(0)!.toString(16)}}`
        : `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`,
  );
}

/** A short printable form for reports: `text "héllo"` or `binary 3 bytes 00ff10`. */
export function describeValue(value: DeliveredValue, max = 40): string {
  if (value.kind === 'text') {
    const cut = [...value.text];
    const shown = printable(JSON.stringify(cut.length > max ? `${cut.slice(0, max).join('')}…` : value.text));
    return `text ${shown} (${Buffer.byteLength(value.text)} bytes)`;
  }
  if (value.kind === 'binary') {
    const hex = Buffer.from(value.bytes.subarray(0, max / 2)).toString('hex');
    return `binary ${value.bytes.length} bytes ${hex}${value.bytes.length > max / 2 ? '…' : ''}`;
  }
  return `unreadable value ${JSON.stringify(value.raw).slice(0, max)}`;
}
