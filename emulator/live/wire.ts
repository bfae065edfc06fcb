import type { EmulatorEvent, EventValue } from '../events.js';
import { hidden } from '../recording.js';

// What the event stream sends for each internal event: the event itself, except that a
// message's value is cut to a preview (the dashboard shows a line of it, and one large
// message must not fill a slow reader's buffer). Everything else is small and sent as is.

/** Characters of text, or of base64, kept in a message's preview. */
export const PREVIEW_CHARS = 512;

export interface ValuePreview {
  /** `text` or `binary` (base64 of the first bytes). */
  value: EventValue;
  /** Size of the whole value: characters of text, bytes of binary. */
  size: number;
  truncated: boolean;
}

export function previewOf(value: EventValue): ValuePreview {
  if ('text' in value) {
    const truncated = value.text.length > PREVIEW_CHARS;
    return {
      value: { text: truncated ? value.text.slice(0, PREVIEW_CHARS) : value.text },
      size: value.text.length,
      truncated,
    };
  }
  const size = Math.floor((value.binary.length * 3) / 4) - (value.binary.match(/=+$/)?.[0].length ?? 0);
  const truncated = value.binary.length > PREVIEW_CHARS;
  return { value: { binary: truncated ? value.binary.slice(0, PREVIEW_CHARS) : value.binary }, size, truncated };
}

/** A `published` message as sent: the event, its value cut to a preview. */
export type PublishedData = Omit<Extract<EmulatorEvent, { kind: 'published' }>, 'value'> & ValuePreview;

/** The `data` of the stream's message for an event (its `event` name is the event's kind). */
export function wireData(event: EmulatorEvent): unknown {
  const named = withHiddenNames(event);
  if (named.kind !== 'published') return named;
  const { value, ...rest } = named;
  const data: PublishedData = { ...rest, ...previewOf(value) };
  return data;
}

/** The event with its cache and topic names as the journal keeps them: a token put in one is masked (recording.ts). */
function withHiddenNames<E extends EmulatorEvent>(event: E): E {
  if (!('topic' in event) || !('cache' in event)) return event;
  const cache = hidden(event.cache);
  const topic = hidden(event.topic);
  return cache === event.cache && topic === event.topic ? event : { ...event, cache, topic };
}
