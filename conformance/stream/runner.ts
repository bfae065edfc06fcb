// Runs one stream scenario over real HTTP on a fresh topic and says what it broke: the
// model's properties, plus every response-level rule on the scenario's own exchanges.
import type { ControlPlane } from '../control.js';
import type { Element, MessageValue } from '../elements.js';
import type { Exchange } from '../exchange.js';
import { StreamModel, type PublishRecord } from '../model.js';
import type { Pace } from '../pace.js';
import type { Target } from '../target.js';
import type { Scenario } from './scenario.js';
import { Subscriber, type Problem } from './subscriber.js';

export interface StreamEnv {
  rule: string;
  target: Target;
  control: ControlPlane | null;
  /** Response-level problems of one exchange (the run's response rules). */
  inspect(exchange: Exchange): Problem[];
  /** How long one scenario may take before its subscribers give up. */
  scenarioTimeoutMs: number;
  /** The waits, derived from the endpoint's measured round trips: how often to nudge, how long to settle. */
  pace: Pick<Pace, 'nudgeEveryMs' | 'settleMs'>;
  /** Set when the property stops (time is up): the scenario winds down at once. */
  cancelled?: () => boolean;
}

export interface ScenarioRun {
  problems: Problem[];
  exchanges: Exchange[];
}

const MAX_SUBSCRIBERS = 4;

function body(message: MessageValue): { bytes: Uint8Array; contentType: string } {
  return message.kind === 'text'
    ? { bytes: new TextEncoder().encode(message.text), contentType: 'text/plain' }
    : { bytes: message.bytes, contentType: 'application/octet-stream' };
}

export async function runScenario(env: StreamEnv, scenario: Scenario, runIndex: number): Promise<ScenarioRun> {
  const { target } = env;
  const topic = target.newTopic(`stream-${runIndex}`);
  const model = new StreamModel();
  const problems: Problem[] = [];
  const firstExchange = target.sender.count + 1;
  const deadline = Date.now() + env.scenarioTimeoutMs;
  const endTexts = new Set<string>();
  const isEnd = (element: Element): boolean =>
    element.kind === 'item' && element.value.kind === 'text' && endTexts.has(element.value.text);
  const subscriberEnv = {
    rule: env.rule,
    target,
    topic,
    model,
    isEnd,
    report: (p: Problem) => problems.push(p),
    deadline,
  };
  const subscribers: Subscriber[] = [];
  const addSubscriber = (start?: { n: number; page: number }): void => {
    if (subscribers.length < MAX_SUBSCRIBERS)
      subscribers.push(new Subscriber(`subscriber #${subscribers.length}`, subscriberEnv, start));
  };
  const pick = (index: number): Subscriber | undefined => subscribers[index % subscribers.length];

  const publish = async (message: MessageValue, label?: PublishRecord['label']): Promise<void> => {
    const record = model.publishStarted(message, label);
    const { bytes, contentType } = body(message);
    const exchange = await target.publish(env.rule, topic, bytes, { contentType });
    if (exchange.status === 204) model.publishEnded(record, 'acked', exchange.id);
    else if (exchange.status === undefined || exchange.status >= 500 || exchange.status === 429)
      model.publishEnded(record, 'unknown', exchange.id);
    else {
      model.publishEnded(record, 'rejected', exchange.id);
      problems.push({
        rule: 'publish.success-204',
        message: `a valid publish answered ${exchange.status}`,
        exchangeIds: [exchange.id],
      });
    }
  };

  for (let i = 0; i < scenario.subscribers; i += 1) addSubscriber();
  const over = (): boolean => Date.now() > deadline || (env.cancelled?.() ?? false);
  for (const step of scenario.steps) {
    if (over()) break;
    switch (step.kind) {
      case 'publish':
        await publish(step.message);
        break;
      case 'burst':
        await Promise.all(step.messages.map((m) => publish(m)));
        break;
      case 'join': {
        const known = subscribers.find((s) => s.joined);
        addSubscriber(step.start === 'page-zero' && known ? { n: known.cursor.n, page: 0 } : undefined);
        break;
      }
      case 'rewind':
        pick(step.subscriber)?.act({ kind: 'rewind', back: step.back });
        break;
      case 'reconnect':
        pick(step.subscriber)?.act({ kind: 'reconnect', pageZero: step.pageZero });
        break;
      case 'stale-page':
        pick(step.subscriber)?.act({ kind: 'stale-page' });
        break;
      case 'reset': {
        if (!env.control) break;
        const record = model.resetStarted();
        await env.control.resetTopic(env.rule, target.cache, topic);
        model.resetEnded(record);
        break;
      }
    }
  }

  // The sentinel ends the stream: every subscriber reads up to it. A subscriber whose first
  // request still waits (it may arrive after the latest message, however late: a slow link, a
  // busy machine) is woken by nudges, published until it has joined; one that has joined reads
  // on past the sentinel. Subscribers still reading get `pace.settleMs` after the last nudge.
  const sentinel = `conformance-end-${target.options.runId}-${runIndex}`;
  endTexts.add(sentinel);
  await publish({ kind: 'text', text: sentinel }, 'sentinel');
  const allDone = Promise.all(subscribers.map((s) => s.done));
  let settled = Math.min(deadline, Date.now() + env.pace.settleMs);
  for (let nudge = 1; Date.now() < settled && !over(); nudge += 1) {
    const done = await Promise.race([
      allDone.then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), env.pace.nudgeEveryMs)),
    ]);
    if (done) break;
    if (subscribers.some((s) => !s.joined && !s.finished)) {
      settled = Math.min(deadline, Date.now() + env.pace.settleMs);
      const text = `conformance-nudge-${target.options.runId}-${runIndex}-${nudge}`;
      endTexts.add(text);
      await publish({ kind: 'text', text }, 'nudge');
    }
  }
  for (const s of subscribers) s.stop();
  await allDone;

  const exchanges = target.sender.exchanges.filter((e) => e.id >= firstExchange && e.rule === env.rule);
  for (const exchange of exchanges) problems.push(...env.inspect(exchange));
  for (const violation of model.check()) problems.push(violation);
  return { problems, exchanges };
}
