import type { TokenWithdrawal } from '../../openapi/generated/control-types.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Authenticator } from '../auth/authenticator.js';
import type { Clock, ClockTimer } from '../clock.js';

// Expiring or revoking a token mid-stream, now or at a clock time: later requests with a token
// of that id answer 401 (expired_token or invalid_token).

export type { TokenWithdrawal };

export class TokenWithdrawals {
  private readonly pending = new Map<TokenWithdrawal, ClockTimer>();

  constructor(
    private readonly auth: Authenticator,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  withdraw(tokenId: string, how: TokenWithdrawal['how'], afterMs = 0, why = 'control plane'): TokenWithdrawal {
    // One reading of the clock: the time shown is exactly the time the withdrawal fires.
    const due = this.clock.now() + afterMs;
    const at = new Date(due).toISOString();
    if (afterMs === 0) {
      this.apply(tokenId, how, why);
      return { tokenId, how, at, scheduled: false };
    }
    const withdrawal: TokenWithdrawal = { tokenId, how, at, scheduled: true };
    this.pending.set(
      withdrawal,
      this.clock.scheduleAt(due, () => {
        this.pending.delete(withdrawal);
        this.apply(tokenId, how, `${why}: scheduled at ${at}`);
      }),
    );
    return withdrawal;
  }

  scheduled(): TokenWithdrawal[] {
    return [...this.pending.keys()];
  }

  reset(): void {
    for (const timer of this.pending.values()) timer.cancel();
    this.pending.clear();
  }

  private apply(tokenId: string, how: TokenWithdrawal['how'], why: string): void {
    this.auth.withdraw(tokenId, how);
    this.log.info({ tokenId, how, why }, `token ${how}: every token with id '${tokenId}' now answers 401 (${why})`);
  }
}
