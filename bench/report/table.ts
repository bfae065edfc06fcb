import type { Row } from '../figures/figure.js';
import type { Machine } from './machine.js';

function formatNumber(value: number | null, unit: string): string {
  if (value === null || Number.isNaN(value)) return 'n/a';
  const digits = unit === 'errors' || Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  const text = value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  return unit === '×' ? `${text}×` : `${text} ${unit}`;
}

function verdict(pass: boolean | null): string {
  return pass === null ? '—' : pass ? 'pass' : 'FAIL';
}

/** The results as a markdown table (readable in a terminal, pasteable into BENCHMARKS.md). */
export function formatTable(rows: readonly Row[], machine: Machine): string {
  const header = ['figure', 'ours', 'baseline', 'ratio', 'target', 'result'];
  const body = rows.map((row) => [
    row.figure,
    formatNumber(row.ours, row.unit),
    row.baseline === null ? 'n/a' : `${formatNumber(row.baseline, row.unit)} (${row.baselineName})`,
    row.ratio === null ? '' : `${row.ratio.toFixed(2)}×`,
    row.target,
    verdict(row.pass),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((cells) => (cells[column] ?? '').length)),
  );
  const line = (cells: string[]): string =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const notes = rows.filter((row) => row.note !== undefined).map((row) => `- ${row.figure}: ${row.note}`);
  return [
    `Node ${machine.node}, ${machine.cpus} × ${machine.cpuModel}, load average ${machine.loadAverage.toFixed(2)} at start`,
    '',
    line(header),
    line(widths.map((width) => '-'.repeat(width))),
    ...body.map(line),
    ...(notes.length > 0 ? ['', ...notes] : []),
  ].join('\n');
}
