import type { Chaos as ChaosView, ChaosInput, ChaosKind } from '../../openapi/generated/control-types.js';
import { chaosInputDefaults, chaosStatusEffects } from '../documents.js';
import type { RequestFacts } from '../requests.js';
import type { FaultEffect } from './rule.js';
import { seededRandom, type Random } from './random.js';

// Seeded chaos: each matching request draws from one PRNG; with probability `rate` it gets a
// fault whose kind is drawn too. Same seed, same requests in the same order: same faults.

export type { ChaosInput, ChaosKind, ChaosView };
const chaosDefaults = chaosInputDefaults();

export interface ChaosDraw {
  kind: ChaosKind;
  /** Index of the draw since chaos started, for the log line that lets a run be replayed. */
  draw: number;
  /** The request's fault; none for a page change, which then lets the request through. */
  effect: FaultEffect | undefined;
}

export class Chaos {
  private readonly settings: Required<ChaosInput>;
  private readonly random: Random;
  private draws = 0;
  private injected = 0;

  constructor(input: ChaosInput) {
    this.settings = {
      seed: input.seed,
      rate: input.rate ?? chaosDefaults.rate,
      kinds: input.kinds ?? [...chaosDefaults.kinds],
      operation: input.operation ?? 'any',
      cache: input.cache ?? '*',
      topic: input.topic ?? '*',
      maxDelayMs: input.maxDelayMs ?? chaosDefaults.maxDelayMs,
    };
    this.random = seededRandom(input.seed);
  }

  get seed(): number {
    return this.settings.seed;
  }

  matches(facts: RequestFacts): boolean {
    const { operation, cache, topic } = this.settings;
    return (
      (operation === 'any' || operation === facts.operation) &&
      (cache === '*' || cache === facts.cache) &&
      (topic === '*' || topic === facts.topic)
    );
  }

  /** One draw for one matching request: a fault, or undefined for none. */
  draw(): ChaosDraw | undefined {
    this.draws += 1;
    if (this.random() >= this.settings.rate) return undefined;
    const { kinds, maxDelayMs } = this.settings;
    const kind = kinds[Math.floor(this.random() * kinds.length)]!;
    this.injected += 1;
    return { kind, draw: this.draws, effect: effectOf(kind, () => 1 + Math.floor(this.random() * maxDelayMs)) };
  }

  view(): ChaosView {
    const { cache, topic, ...rest } = this.settings;
    return {
      enabled: true,
      ...rest,
      ...(cache !== '*' ? { cache } : {}),
      ...(topic !== '*' ? { topic } : {}),
      draws: this.draws,
      injected: this.injected,
    };
  }
}

function effectOf(kind: ChaosKind, delay: () => number): FaultEffect | undefined {
  switch (kind) {
    case 'throttle':
    case 'error':
    case 'outage':
      return chaosStatusEffects[kind];
    case 'delay':
      return { delayMs: delay() };
    case 'drop':
      return { drop: true };
    case 'pageChange':
      return undefined;
  }
}
