// One internal stream of what happens in the emulator. The request journal writes to it; the
// dashboard's live view, metrics and (with a shared store) other replicas read from it. Emitting
// with no listener costs one boolean check, so the hot path pays nothing when nobody listens.

import type { ExchangeFacts } from './exchange.js';

/** Where a message value is shown: text as is, binary as base64. */
export type EventValue = { text: string } | { binary: string };

export type EmulatorEvent =
  /** A service or control-plane request was answered, dropped or left by its client (http/exchanges.ts). */
  | { kind: 'request'; at: number; record: ExchangeFacts }
  /** A message was numbered and retained. */
  | {
      kind: 'published';
      at: number;
      cache: string;
      topic: string;
      page: number;
      sequenceNumber: number;
      value: EventValue;
    }
  /** A topic was evicted and recreated on a new page. */
  | { kind: 'page-changed'; at: number; cache: string; topic: string; page: number }
  /** A subscriber started waiting on a topic, or stopped (answered, timed out, gone). */
  | { kind: 'waiting'; at: number; cache: string; topic: string; waiting: number }
  /** Something the control plane holds changed (faults, chaos, limits, clock, tokens, reset, scenario). */
  | { kind: 'control'; at: number; operationId: string };

export type EmulatorEventKind = EmulatorEvent['kind'];
export type EventListener = (event: EmulatorEvent) => void;

export class EmulatorEvents {
  private readonly listeners = new Set<EventListener>();

  /** True when someone listens: emitters check it before building an event. */
  get active(): boolean {
    return this.listeners.size > 0;
  }

  /** How many listen now (the journal and metrics listen from the start; each event-stream reader adds one). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Adds a listener; returns the function that removes it. */
  on(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every listener; a listener that throws is removed rather than breaking the request path. */
  emit(event: EmulatorEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        this.listeners.delete(listener);
      }
    }
  }
}
