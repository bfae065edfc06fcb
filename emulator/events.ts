// One internal stream of what happens in the emulator. The request journal writes to it; the
// dashboard's live view, metrics and (with a shared store) other replicas read from it. Emitters
// ask `listens(kind)` first: with no listener of that kind, an event costs one check and is not built.

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

const KINDS = Object.keys({
  request: true,
  published: true,
  'page-changed': true,
  waiting: true,
  control: true,
} satisfies Record<EmulatorEventKind, true>) as EmulatorEventKind[];

export class EmulatorEvents {
  private readonly listeners = new Set<EventListener>();
  // The listeners of each kind, in order; replaced (never changed in place) when one comes or
  // goes, so an emit runs over a fixed list. A listener of some kinds only (the journal and the
  // metrics hear `request` alone) costs the other kinds' emitters nothing: they ask `listens`.
  // A plain object of fixed keys, not a Map: every request asks it once or twice.
  private readonly byKind = Object.fromEntries(KINDS.map((kind) => [kind, []])) as unknown as Record<
    EmulatorEventKind,
    readonly EventListener[]
  >;

  /** True when someone listens: emitters check it before building an event. */
  get active(): boolean {
    return this.listeners.size > 0;
  }

  /** True when someone listens to events of this kind: its emitters check it before building one. */
  listens(kind: EmulatorEventKind): boolean {
    return this.byKind[kind].length > 0;
  }

  /** How many listen now (the journal and metrics listen from the start; each event-stream reader adds one). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Adds a listener, to every kind or to those given; returns the function that removes it. */
  on(listener: EventListener, kinds: readonly EmulatorEventKind[] = KINDS): () => void {
    if (this.listeners.has(listener)) return () => this.off(listener);
    this.listeners.add(listener);
    for (const kind of kinds) this.byKind[kind] = [...this.byKind[kind], listener];
    return () => this.off(listener);
  }

  private off(listener: EventListener): boolean {
    if (!this.listeners.delete(listener)) return false;
    for (const kind of KINDS) this.byKind[kind] = this.byKind[kind].filter((l) => l !== listener);
    return true;
  }

  /** Tells every listener of its kind; a listener that throws is removed rather than breaking the request path. */
  emit(event: EmulatorEvent): void {
    const listeners = this.byKind[event.kind];
    for (let i = 0; i < listeners.length; i++) {
      try {
        listeners[i]!(event);
      } catch {
        this.off(listeners[i]!);
      }
    }
  }
}
