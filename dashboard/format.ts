import type { EventValue } from '../emulator/events.js';

// How values and times read on screen.

export function timeOf(epochMs: number): string {
  const d = new Date(epochMs);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

export function durationOf(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.floor((ms % 60_000) / 1000)} s`;
}

/** A binary value's first bytes in hex, e.g. `00 ff 01`. */
export function hexPreview(base64: string, bytes = 24): string {
  const raw = atob(base64.slice(0, Math.ceil(bytes / 3) * 4));
  return [...raw]
    .slice(0, bytes)
    .map((c) => c.charCodeAt(0).toString(16).padStart(2, '0'))
    .join(' ');
}

export function valueLine(value: EventValue): { kind: 'text' | 'binary'; shown: string; base64?: string } {
  if ('text' in value) return { kind: 'text', shown: value.text };
  return { kind: 'binary', shown: hexPreview(value.binary), base64: value.binary };
}

export function sizeOf(size: number, kind: 'text' | 'binary'): string {
  return kind === 'text' ? `${size} char${size === 1 ? '' : 's'}` : `${size} byte${size === 1 ? '' : 's'}`;
}
