import type { Clock } from './clock.js';
import type { EmulatorError } from './errors.js';
import type { EmulatorEvents } from './events.js';
import type { WaitingRequest, WaitingRequests } from './requests.js';

// Every subscriber waiting now, whichever door it came through (service/subscription.ts): a
// long-poll parked on its topic or an open subscription stream, which waits for its whole life. One registry and one count: the --max-waiting check, the
// concurrent-subscriptions limit, "while waiting" fault rules, the state and the dashboard all
// read it; the event stream hears how many wait on a topic whenever one starts or stops.

/** What the registry holds: one waiting subscriber, as everyone but its door sees it. */
export interface WaitingEntry extends WaitingRequest {
  /** Who waits, named as the exchanges' `client` (never the credential). */
  readonly client: string | null;
  /** Ends it with no items (a reset, shutdown, a deleted cache): a long-poll's empty answer; a stream ends, told `why`. */
  close(why?: EmulatorError): void;
  /** Resolves once its answer has left (shutdown waits on it, bounded). */
  flushed(): Promise<void>;
}

export class WaitingSubscribers implements WaitingRequests {
  private readonly entries = new Set<WaitingEntry>();

  constructor(
    readonly clock: Clock,
    private readonly events: EmulatorEvents,
    /** How many are parked on a topic now (service/parking.ts): what the event stream is told. */
    private readonly parkedOn: (cache: string, topic: string) => number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  has(request: WaitingRequest): boolean {
    return this.entries.has(request as WaitingEntry);
  }

  [Symbol.iterator](): IterableIterator<WaitingEntry> {
    return this.entries.values();
  }

  /** Holds an entry until `forget`. */
  enter(entry: WaitingEntry): void {
    this.entries.add(entry);
    this.told(entry);
  }

  forget(entry: WaitingEntry): void {
    if (this.entries.delete(entry)) this.told(entry);
  }

  /** Answers every waiting subscriber with no items (reset, shutdown); returns them. */
  answerAll(why?: EmulatorError): WaitingEntry[] {
    const all = [...this.entries];
    for (const waiting of all) waiting.close(why);
    return all;
  }

  /** Answers the ones waiting on a cache's topics with no items (the cache was deleted). */
  answerCache(cache: string): void {
    for (const waiting of [...this.entries]) if (waiting.facts.cache === cache) waiting.close();
  }

  /** Ends every subscription a token of this id opened, with its 401 (the token was expired or revoked). */
  endToken(tokenId: string, error: EmulatorError): number {
    let ended = 0;
    for (const waiting of [...this.entries])
      if (waiting.facts.tokenId === tokenId && waiting.interrupt({ decidedBy: { kind: 'token' }, error })) ended++;
    return ended;
  }

  /** The event stream hears how many wait on the topic now (only while someone listens). */
  private told({ facts }: WaitingEntry): void {
    if (!this.events.listens('waiting')) return;
    const { cache, topic } = facts;
    this.events.emit({ kind: 'waiting', at: this.clock.now(), cache, topic, waiting: this.parkedOn(cache, topic) });
  }
}
