// Tokens never reach a report: every known secret is replaced by a shell variable name
// ($TOKEN, $RESTRICTED_TOKEN, ...) so that printed curl commands still work once exported.

export class Secrets {
  private readonly names = new Map<string, string>();
  private issued = 0;

  /** Registers a secret under a shell variable name; empty values are ignored. */
  add(value: string | undefined, name: string): void {
    if (value && value.length > 0 && !this.names.has(value)) this.names.set(value, name);
  }

  /** Registers a token minted during the run ($ISSUED_TOKEN_1, ...). */
  addIssued(value: string): string {
    const existing = this.names.get(value);
    if (existing) return existing;
    this.issued += 1;
    const name = `ISSUED_TOKEN_${this.issued}`;
    this.names.set(value, name);
    return name;
  }

  /** Variable names in use, for the "export TOKEN=..." hint. */
  variables(): string[] {
    return [...new Set(this.names.values())];
  }

  redact(text: string): string {
    let out = text;
    // Longest first, so a secret containing another is replaced whole.
    const entries = [...this.names.entries()].sort((a, b) => b[0].length - a[0].length);
    for (const [value, name] of entries) {
      for (const form of new Set([
        value,
        encodeURIComponent(value),
        new URLSearchParams({ t: value }).toString().slice(2),
      ])) {
        out = out.split(form).join(`$${name}`);
      }
    }
    return out;
  }
}
