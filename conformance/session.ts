// The state of one run: the selected rules with what each found, and every exchange. Response
// rules see each exchange here as it completes, whichever rule sent it.
import type { Contract } from './contract.js';
import type { ControlPlane } from './control.js';
import type { Exchange } from './exchange.js';
import type { Sender } from './http.js';
import type { ResolvedOptions } from './options.js';
import type { Finding, Rule } from './rules/types.js';
import type { Secrets } from './secrets.js';
import type { Problem } from './stream/subscriber.js';
import type { Target } from './target.js';

/** The stream property that runs with control-plane steps reports under this rule. */
export const CONTROL_STREAM_RULE = 'control.page-change-mid-stream';

export interface RuleState {
  findings: Finding[];
  detail?: string;
  skipped?: string;
  /** Responses a response rule applied to. */
  checked: number;
  ran: boolean;
  durationMs?: number;
}

export class Session {
  readonly states = new Map<string, RuleState>();
  readonly byId = new Map<number, Exchange>();

  constructor(
    readonly options: ResolvedOptions,
    readonly contract: Contract,
    readonly sender: Sender,
    readonly target: Target,
    readonly secrets: Secrets,
    readonly selected: Rule[],
    readonly control: ControlPlane | null,
    readonly deadline: number,
  ) {
    for (const rule of selected) this.states.set(rule.id, { findings: [], checked: 0, ran: false });
    sender.onExchange((exchange) => this.inspect(exchange));
  }

  state(id: string): RuleState | undefined {
    return this.states.get(id);
  }

  /** Response rules see every exchange, whichever rule sent it. */
  private inspect(exchange: Exchange): void {
    this.byId.set(exchange.id, exchange);
    for (const rule of this.selected) {
      if (rule.kind !== 'response') continue;
      const problems = rule.inspect(exchange, this.contract);
      if (problems === null) continue;
      const state = this.states.get(rule.id)!;
      state.checked += 1;
      for (const message of problems)
        state.findings.push({ message: `${message} (sent by ${exchange.rule})`, exchanges: [exchange] });
    }
  }

  /** Response-level problems of one exchange, for the stream property's verdict. */
  responseProblems(exchange: Exchange): Problem[] {
    const problems: Problem[] = [];
    for (const rule of this.selected) {
      // An observation is never a problem: the stream properties judge the contract only.
      if (rule.kind !== 'response' || rule.level === 'observation') continue;
      for (const message of rule.inspect(exchange, this.contract) ?? [])
        problems.push({ rule: rule.id, message, exchangeIds: [exchange.id] });
    }
    return problems;
  }

  exchanges(ids: number[]): Exchange[] {
    return ids.map((id) => this.byId.get(id)).filter((e): e is Exchange => e !== undefined);
  }
}
