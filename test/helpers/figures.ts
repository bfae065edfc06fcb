import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Figures in the docs that come from a measurement are written by the command that measures it:
//
//   <!-- figure: package-packed 1269156 -->1.2 MiB<!-- /figure -->
//
// The comment keeps the measured value; the text is that value as the reader sees it. The test
// that measures calls `checkFigure`: it fails when the measurement is off the page's value by more
// than the tolerance (or the text no longer shows the kept value), and with UPDATE_FIGURES=1 it
// writes the new measurement into the page instead.

const root = fileURLToPath(new URL('../..', import.meta.url));
const MARKER = (name: string) => new RegExp(`<!-- figure: ${name} (\\S+) -->([\\s\\S]*?)<!-- /figure -->`);

export interface FigureFormat {
  /** The value as the page shows it. */
  show(value: number): string;
  /** How far the measurement may be from the page's value, as a share of it (0.1: 10 %). */
  tolerance: number;
}

export const kib: FigureFormat = { show: (bytes) => `${Math.round(bytes / 1024)} KiB`, tolerance: 0.15 };
export const mib: FigureFormat = { show: (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`, tolerance: 0.15 };
export const mb: FigureFormat = { show: (bytes) => `${Math.round(bytes / 1e6)} MB`, tolerance: 0.1 };
export const count: FigureFormat = { show: (n) => n.toLocaleString('en-US'), tolerance: 0 };

function pages(): string[] {
  return [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
}

/** Where the figure is, and what the page says: its kept value and its text. */
function find(name: string): { page: string; text: string; kept: number; shown: string } {
  for (const page of pages()) {
    const text = readFileSync(join(root, page), 'utf8');
    const match = MARKER(name).exec(text);
    if (match) return { page, text, kept: Number(match[1]), shown: match[2]! };
  }
  throw new Error(`no <!-- figure: ${name} ... --> in README.md or docs/`);
}

/** Checks (or with UPDATE_FIGURES=1 writes) a measured figure; returns what is wrong, or undefined. */
export function checkFigure(name: string, measured: number, format: FigureFormat): string | undefined {
  const { page, text, kept, shown } = find(name);
  if (process.env.UPDATE_FIGURES === '1') {
    writeFileSync(
      join(root, page),
      text.replace(MARKER(name), `<!-- figure: ${name} ${measured} -->${format.show(measured)}<!-- /figure -->`),
    );
    return undefined;
  }
  const off = kept === 0 ? (measured === 0 ? 0 : Infinity) : Math.abs(measured - kept) / kept;
  if (shown !== format.show(kept))
    return `${page}: figure ${name} shows '${shown}' but keeps ${kept} (${format.show(kept)})`;
  if (off > format.tolerance)
    return `${page}: figure ${name} is ${format.show(kept)}, measured ${format.show(measured)} (run with UPDATE_FIGURES=1 to write it)`;
  return undefined;
}
