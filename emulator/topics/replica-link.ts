// What a shared store offers the control plane for reads that must cover every replica (the
// journal, the client findings, waiting subscribers): who the replicas are, and a question put
// to each of them. The in-memory store has none: its process is the whole emulator.

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
}
