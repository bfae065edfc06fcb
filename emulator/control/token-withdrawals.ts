import type { TokenWithdrawal } from '../../openapi/generated/control-types.js';
import type { Log } from '../logging.js';
import { Authenticator } from '../auth/authenticator.js';
import type { WaitingSubscribers } from '../waiting.js';
import type { Clock, ClockTimer } from '../clock.js';

// Expiring or revoking a token mid-stream, now or at a clock time: later requests with a token
// of that id answer 401 (expired_token or invalid_token), and what such a token opened (a waiting
// long-poll, a subscription stream) ends with that 401 then, on every door.

export type { TokenWithdrawal };

export class TokenWithdrawals {
  private readonly pending = new Map<TokenWithdrawal, ClockTimer>();
  /** Withdrawals in effect, the latest per token id (a snapshot saves them). */
  private readonly applied = new Map<string, TokenWithdrawal>();

  constructor(
    private readonly auth: Authenticator,
    private readonly clock: Clock,
    private readonly log: Log,
    private readonly waiting: WaitingSubscribers,
  ) {}

  withdraw(tokenId: string, how: TokenWithdrawal['how'], afterMs = 0, why = 'control plane'): TokenWithdrawal {
    // The time shown is the due time, exactly when the withdrawal fires.
    return this.withdrawAt(tokenId, how, this.clock.now() + afterMs, why);
  }

  /**
   * The withdrawal due at this clock time (ms): now when it is past, shown at that time (another
   * replica's withdrawal shows the time it took effect there, on every replica).
   */
  withdrawAt(tokenId: string, how: TokenWithdrawal['how'], due: number, why: string): TokenWithdrawal {
    const at = new Date(due).toISOString();
    if (due <= this.clock.now()) {
      this.apply(tokenId, how, at, why);
      return { tokenId, how, at, scheduled: false };
    }
    const withdrawal: TokenWithdrawal = { tokenId, how, at, scheduled: true };
    this.pending.set(
      withdrawal,
      this.clock.scheduleAt(due, () => {
        this.pending.delete(withdrawal);
        this.apply(tokenId, how, at, `${why}: scheduled at ${at}`);
      }),
    );
    return withdrawal;
  }

  scheduled(): TokenWithdrawal[] {
    return [...this.pending.keys()];
  }

  /** Applied and scheduled withdrawals, for a snapshot. */
  saved(): TokenWithdrawal[] {
    return [...this.applied.values(), ...this.scheduled()];
  }

  /** Replaces every withdrawal (the authenticator forgot its own): scheduled ones whose time has passed apply now. */
  restore(withdrawals: readonly TokenWithdrawal[], why: string): void {
    this.reset();
    const now = this.clock.now();
    for (const { tokenId, how, at, scheduled } of withdrawals) {
      const due = Date.parse(at);
      if (scheduled && due > now) this.withdraw(tokenId, how, due - now, why);
      else {
        this.auth.withdraw(tokenId, how);
        this.applied.set(tokenId, { tokenId, how, at, scheduled: false });
      }
    }
  }

  reset(): void {
    for (const timer of this.pending.values()) timer.cancel();
    this.pending.clear();
    this.applied.clear();
  }

  private apply(tokenId: string, how: TokenWithdrawal['how'], at: string, why: string): void {
    this.auth.withdraw(tokenId, how);
    this.applied.set(tokenId, { tokenId, how, at, scheduled: false });
    const ended = this.waiting.endToken(tokenId, Authenticator.withdrawnError(how));
    this.log.info(
      { tokenId, how, why, ended },
      `token ${how}: every token with id '${tokenId}' now answers 401 (${why}); ${ended} subscription(s) it opened ended`,
    );
  }
}
