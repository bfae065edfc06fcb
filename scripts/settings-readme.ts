// Writes the configuration page's table (docs/configuration.md) from the settings table
// (emulator/settings-table.ts): `npm run settings:readme`. A test fails when the page's copy drifts from it.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { helpOf, shownDefault } from '../emulator/settings-help.js';
import { configOption, ENV_PREFIX, settingKeys, settingsTable, type SettingRow } from '../emulator/settings-table.js';

export const readmePath = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));
const BEGIN = '<!-- settings table: generated from emulator/settings-table.ts by `npm run settings:readme` -->';
const END = '<!-- end of settings table -->';

const code = (text: string) => `\`${text}\``;
const cell = (text: string) => text.replaceAll('|', '\\|');

function flagOf(row: SettingRow): string {
  const [flag] = row.flag.split(' ');
  const values = row.words ?? (row.schema['enum'] as string[] | undefined);
  const value = values ? values.join('|') : (/<(.+)>/.exec(row.flag)?.[1] ?? '').toUpperCase();
  return code(`${flag} ${value}`);
}

function defaultOf(row: SettingRow): string {
  if (row.shownDefault !== undefined) return row.shownDefault;
  const shown = shownDefault(row);
  return shown === undefined ? 'none' : code(shown);
}

export function settingsTableMarkdown(): string {
  const rows = settingKeys.map((key) => {
    const row: SettingRow = settingsTable[key];
    const env = `${code(ENV_PREFIX + row.env)}${row.schema['type'] === 'array' ? ' (comma-separated)' : ''}`;
    const what = helpOf(row, { withDefault: false, durationNote: '`90s`, `5m`; plain numbers are ms' });
    return [flagOf(row), env, code(key), defaultOf(row), what];
  });
  rows.push([code(`--config FILE`), code(ENV_PREFIX + configOption.env), '', '', configOption.help]);
  return [
    '| flag | environment | config key | default | what it does |',
    '|---|---|---|---|---|',
    ...rows.map((cells) => `| ${cells.map(cell).join(' | ')} |`),
  ].join('\n');
}

/** The configuration page with its settings table generated afresh. */
export function readmeWithSettings(readme: string): string {
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start < 0 || end < start)
    throw new Error(`docs/configuration.md has no settings table between ${BEGIN} and ${END}`);
  return `${readme.slice(0, start)}${BEGIN}\n${settingsTableMarkdown()}\n${readme.slice(end)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(readmePath, readmeWithSettings(readFileSync(readmePath, 'utf8')));
  console.log('docs/configuration.md: settings table written');
}
