// The emulator's control plane (/_emulator/...), as control-level rules use it. Only
// reached when detected or asked for; an endpoint that answers 404/405 makes the rule
// that needs it skip with the reason, so the suite runs against emulators without it.
import type { FaultRuleInput, Permission } from '../openapi/generated/control-types.js';
import { bodyText, type Exchange } from './exchange.js';
import type { Target } from './target.js';

export class ControlUnavailable extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ControlUnavailable';
  }
}

/** GET /_emulator/health answering JSON `status: ok` means the emulator's control plane is there. */
export async function detectControlPlane(
  target: Target,
  rule: string,
): Promise<{ available: boolean; reason: string }> {
  const exchange = await target.control(rule, 'GET', '/_emulator/health');
  const status = (exchange.json as { status?: unknown } | undefined)?.status;
  if (exchange.status === 200 && status === 'ok')
    return { available: true, reason: 'GET /_emulator/health answered status ok' };
  const seen =
    exchange.status !== undefined ? `answered ${exchange.status}` : `failed (${exchange.error ?? 'no answer'})`;
  return { available: false, reason: `GET /_emulator/health ${seen}: not the emulator, control-level rules skipped` };
}

export class ControlPlane {
  constructor(
    private readonly target: Target,
    private readonly onIssuedToken: (token: string) => void,
  ) {}

  private async call(rule: string, method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<Exchange> {
    const exchange = await this.target.control(rule, method, path, body);
    if (exchange.status === 404 || exchange.status === 405 || exchange.status === 501) {
      throw new ControlUnavailable(
        `${method} ${path} answered ${exchange.status}: this emulator has no such control endpoint`,
      );
    }
    if (exchange.status === undefined || exchange.status >= 300) {
      const detail =
        exchange.status !== undefined ? `${exchange.status} ${bodyText(exchange).slice(0, 200)}` : exchange.error;
      throw new ControlUnavailable(`${method} ${path} failed: ${detail}`);
    }
    return exchange;
  }

  /** Evicts and recreates the topic now: a new page, numbering restarts. */
  async resetTopic(rule: string, cache: string, topic: string): Promise<Exchange> {
    return this.call(
      rule,
      'POST',
      `/_emulator/topics/${encodeURIComponent(cache)}/${encodeURIComponent(topic)}/reset`,
      {},
    );
  }

  /** Installs a fault rule; returns its id when the emulator gives one. */
  async addFault(rule: string, fault: FaultRuleInput): Promise<string | undefined> {
    const exchange = await this.call(rule, 'POST', '/_emulator/faults', fault);
    const id = (exchange.json as { id?: unknown } | undefined)?.id;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
  }

  async removeFault(rule: string, id: string): Promise<void> {
    await this.call(rule, 'DELETE', `/_emulator/faults/${encodeURIComponent(id)}`);
  }

  async issueToken(rule: string, permissions: Permission[], ttlSeconds: number): Promise<string> {
    const exchange = await this.call(rule, 'POST', '/_emulator/tokens', { permissions, ttlSeconds });
    const token = (exchange.json as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || token.length === 0)
      throw new ControlUnavailable('POST /_emulator/tokens answered no token');
    this.onIssuedToken(token);
    return token;
  }

  async advanceClock(rule: string, advanceMs: number): Promise<void> {
    await this.call(rule, 'POST', '/_emulator/clock', { advanceMs });
  }

  async resetAll(rule: string): Promise<void> {
    await this.call(rule, 'POST', '/_emulator/reset', {});
  }
}
