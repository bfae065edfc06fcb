// What a shared store offers the control plane for reads that must cover every replica (the
// journal, the client findings, waiting subscribers): who the replicas are, a question put to
// each of them, and the events only the replica where they happen emits (for the event stream's
// readers). The in-memory store has none: its process is the whole emulator.

import type { EmulatorEvent, EmulatorEventKind } from '../events.js';

/**
 * The kinds of event only the replica where they happen emits (publishes, page and control
 * changes reach every replica through the store): what replicas pass on to each other's readers.
 */
export const RELAYED_KINDS: readonly EmulatorEventKind[] = ['request', 'waiting'];

/** Events another replica passed on (its `request` and `waiting` events), with those it counted instead. */
export interface RelayedEvents {
  /** The short id of the replica they happened on. */
  replica: string;
  events: EmulatorEvent[];
  /** Events it did not pass on (past its rate): a reader's `gap`. */
  dropped: number;
}

/** One replica's answer to a question. */
export interface ReplicaAnswer {
  /** The short id of the replica that answered (`r<ordinal>`). */
  replica: string;
  answer: unknown;
}

export interface ReplicaLink {
  /** This replica's short id (`r<ordinal>`). */
  readonly id: string;
  /** Its ordinal, unique among the replicas registered on the store at once (ids of its journal entries use it). */
  readonly ordinal: number;
  /** When this replica started (epoch milliseconds, real time). */
  readonly startedAt: number;
  /**
   * Puts a question to every registered replica, this one included (answered by `onQuestion`
   * here), and resolves with every answer. Rejects (EmulatorError 503 `replica_unreachable`,
   * naming them) when a registered replica does not answer in time: never a partial answer.
   */
  ask(question: object): Promise<ReplicaAnswer[]>;
  /** Answers a question another replica (or this one) put; set by the control plane. */
  onQuestion: ((question: unknown) => unknown) | undefined;
  /**
   * Hears the other replicas' `request` and `waiting` events (theirs alone: publishes, page and
   * control changes reach every replica through the store) from shortly after it starts
   * listening; they pass them on only while some replica listens. Returns the function that stops.
   */
  hearOthers(listener: (relayed: RelayedEvents) => void): () => void;
}
