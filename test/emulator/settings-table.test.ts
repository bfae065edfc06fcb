import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { helpOf } from '../../emulator/settings-help.js';
import {
  defaultSettings,
  settingGroups,
  settingKeys,
  settingsSchema,
  settingsTable,
} from '../../emulator/settings-table.js';
import { readmePath, readmeWithSettings, settingsTableMarkdown } from '../../scripts/settings-readme.js';

describe('the settings table', () => {
  it("is the configuration page's table (run npm run settings:readme)", () => {
    const readme = readFileSync(readmePath, 'utf8');
    expect(readme).toContain(settingsTableMarkdown());
    expect(readmeWithSettings(readme)).toBe(readme);
  });

  it('puts every setting in exactly one of the help groups', () => {
    const grouped = Object.values(settingGroups).flat();
    expect([...grouped].sort()).toEqual([...settingKeys].sort());
    expect(new Set(grouped).size).toBe(grouped.length);
  });

  it('gives every setting one flag, one environment variable and one schema', () => {
    const flags = settingKeys.map((key) => settingsTable[key].flag.split(' ')[0]);
    const envs = settingKeys.map((key) => settingsTable[key].env);
    expect(new Set(flags).size).toBe(settingKeys.length);
    expect(new Set(envs).size).toBe(settingKeys.length);
    expect(Object.keys(settingsSchema.properties)).toEqual(settingKeys);
  });

  it('shows each default in the help from the value itself', () => {
    expect(helpOf(settingsTable.port)).toBe('port to listen on; 0 picks a free one (default 4545)');
    expect(helpOf(settingsTable.longPollTimeoutMs)).toMatch(/\(default 60s; plain numbers are ms\)$/);
    expect(helpOf(settingsTable.caches)).toMatch(/\(repeatable; default default-cache\)$/);
    expect(helpOf(settingsTable.controlPlane)).toMatch(/\(default on\)$/);
    expect(defaultSettings.longPollTimeoutMs).toBe(60_000);
  });
});
