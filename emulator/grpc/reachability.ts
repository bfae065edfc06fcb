// Whether the gRPC door can be reached: momento-local's test-admin `/block` makes it unreachable
// as a dropped network does (open connections close, new ones are refused), `/unblock` restores
// it. The gRPC port's listener and the gRPC-web bridge both consult it.

export class Reachability {
  private isBlocked = false;
  private readonly listeners = new Set<() => void>();

  get blocked(): boolean {
    return this.isBlocked;
  }

  /** Runs `listener` at each block (to close what is open); returns the function that removes it. */
  onBlock(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  block(): void {
    this.isBlocked = true;
    for (const listener of [...this.listeners]) listener();
  }

  unblock(): void {
    this.isBlocked = false;
  }
}
