import type { SettingRow } from './settings-table.js';

// How a setting reads to a person, in --help and in the README's table: both from its row.

/** The setting's default in words: the row's own, or the value (durations as `60s`). */
export function shownDefault(row: SettingRow): string | undefined {
  if (row.shownDefault !== undefined) return row.shownDefault;
  const value = row.default;
  if (value === undefined) return undefined;
  if (row.words) return row.words[value ? 0 : 1];
  if (row.duration) return Number(value) % 1000 === 0 ? `${Number(value) / 1000}s` : `${String(value)}ms`;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** The row's help, then its notes: repeatable, its default (unless shown apart), how a duration reads. */
export function helpOf(row: SettingRow, { withDefault = true, durationNote = 'plain numbers are ms' } = {}): string {
  const shown = withDefault ? shownDefault(row) : undefined;
  const notes = [
    ...(row.schema['type'] === 'array' ? ['repeatable'] : []),
    ...(shown !== undefined ? [`default ${shown}`] : []),
    ...(row.duration ? [durationNote] : []),
  ];
  return notes.length > 0 ? `${row.help} (${notes.join('; ')})` : row.help;
}
