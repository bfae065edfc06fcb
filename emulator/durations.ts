// Durations on the command line: "90s", "5m", "1h", "500ms", or a plain whole number in the
// unit the flag documents.
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string, plainUnitMs: number): number {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) throw new Error(`'${text}' is not a duration (examples: 500ms, 90s, 5m, 1h)`);
  return Number(match[1]) * (match[2] ? UNITS[match[2]]! : plainUnitMs);
}
