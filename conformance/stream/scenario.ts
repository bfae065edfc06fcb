// A stream scenario: what fast-check generates and shrinks. Publishes of any text or
// bytes up to the payload limit, alone or concurrently, while subscribers join, rewind,
// reconnect or resume from a stale page; with the control plane, topic resets too.
import fc from 'fast-check';
import { describeValue, type MessageValue } from '../elements.js';

export type Step =
  | { kind: 'publish'; message: MessageValue }
  /** Sent concurrently, as from several publishers. */
  | { kind: 'burst'; messages: MessageValue[] }
  /** A new subscriber: a first request, or a resume at a known number with page 0 ("when unsure"). */
  | { kind: 'join'; start: 'first' | 'page-zero' }
  /** A subscriber goes back `back` numbers on its page and reads forward again. */
  | { kind: 'rewind'; subscriber: number; back: number }
  /** A subscriber drops its long-poll and polls again from its cursor (page 0 if asked). */
  | { kind: 'reconnect'; subscriber: number; pageZero: boolean }
  /** A subscriber resumes with a page the topic never had. */
  | { kind: 'stale-page'; subscriber: number }
  /** Control plane: the topic is evicted and recreated (a new page). */
  | { kind: 'reset' };

export interface Scenario {
  /** Subscribers that start with a first request before anything is published. */
  subscribers: number;
  steps: Step[];
}

/** Cuts text to at most `limit` UTF-8 bytes on a code point boundary; never empty. */
function fitText(text: string, limit: number): string {
  let out = text;
  while (Buffer.byteLength(out) > limit) out = [...out].slice(0, -1).join('');
  return out.length > 0 ? out : 'x';
}

export function messageArbitrary(payloadLimit: number): fc.Arbitrary<MessageValue> {
  const near = Math.max(1, payloadLimit - 16);
  const text = fc
    .oneof(
      { weight: 6, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 24 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: Math.ceil(payloadLimit / 4) }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', minLength: near, maxLength: payloadLimit }) },
    )
    .map((t): MessageValue => ({ kind: 'text', text: fitText(t, payloadLimit) }));
  const binary = fc
    .oneof(
      { weight: 6, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 24 }) },
      { weight: 1, arbitrary: fc.uint8Array({ minLength: near, maxLength: payloadLimit }) },
    )
    .map((bytes): MessageValue => ({ kind: 'binary', bytes }));
  return fc.oneof({ weight: 3, arbitrary: text }, { weight: 2, arbitrary: binary });
}

export function scenarioArbitrary(options: {
  payloadLimit: number;
  control: boolean;
  maxSteps?: number;
}): fc.Arbitrary<Scenario> {
  const message = messageArbitrary(options.payloadLimit);
  const subscriber = fc.nat({ max: 3 });
  const steps: Array<fc.WeightedArbitrary<Step>> = [
    { weight: 8, arbitrary: message.map((m): Step => ({ kind: 'publish', message: m })) },
    {
      weight: 2,
      arbitrary: fc.array(message, { minLength: 2, maxLength: 4 }).map((ms): Step => ({ kind: 'burst', messages: ms })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom<'first' | 'page-zero'>('first', 'page-zero')
        .map((start): Step => ({ kind: 'join', start })),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({ subscriber, back: fc.integer({ min: 1, max: 6 }) })
        .map((r): Step => ({ kind: 'rewind', ...r })),
    },
    {
      weight: 1,
      arbitrary: fc.record({ subscriber, pageZero: fc.boolean() }).map((r): Step => ({ kind: 'reconnect', ...r })),
    },
    { weight: 1, arbitrary: subscriber.map((s): Step => ({ kind: 'stale-page', subscriber: s })) },
  ];
  if (options.control) steps.push({ weight: 2, arbitrary: fc.constant<Step>({ kind: 'reset' }) });
  const scenario = fc.record({
    subscribers: fc.integer({ min: 1, max: 3 }),
    steps: fc.array(fc.oneof(...steps), { minLength: 1, maxLength: options.maxSteps ?? 14 }),
  });
  if (!options.control) return scenario;
  // Every control scenario resets the topic at least once, at any point of the stream.
  return fc.tuple(scenario, fc.nat()).map(([s, at]) => {
    const steps = [...s.steps];
    steps.splice(at % (steps.length + 1), 0, { kind: 'reset' });
    return { ...s, steps };
  });
}

export function describeStep(step: Step): string {
  switch (step.kind) {
    case 'publish':
      return `publish ${describeValue(step.message)}`;
    case 'burst':
      return `publish ${step.messages.length} concurrently: ${step.messages.map((m) => describeValue(m, 16)).join(' | ')}`;
    case 'join':
      return step.start === 'first'
        ? 'a new subscriber joins with a first request (sequence_number=0, sequence_page=0)'
        : 'a new subscriber joins at a known number with sequence_page=0';
    case 'rewind':
      return `subscriber #${step.subscriber} goes back ${step.back} number(s) and reads forward again`;
    case 'reconnect':
      return `subscriber #${step.subscriber} drops its long-poll and polls again${step.pageZero ? ' with sequence_page=0' : ''}`;
    case 'stale-page':
      return `subscriber #${step.subscriber} resumes with a page the topic never had`;
    case 'reset':
      return 'the topic is reset through the control plane (new page)';
  }
}

export function describeScenario(scenario: Scenario): string[] {
  return [`${scenario.subscribers} subscriber(s) start with a first request`, ...scenario.steps.map(describeStep)];
}
