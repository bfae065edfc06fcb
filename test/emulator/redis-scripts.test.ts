import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { luaOf, scriptFile, SCRIPTS, type ScriptName } from '../../emulator/redis/scripts.js';

// The Redis store's scripts are files (emulator/redis/lua/), declared once in scripts.ts. These
// checks need no Redis: every declared script has its file and fragments, and no file is left over.

const dir = fileURLToPath(new URL('../../emulator/redis/lua/', import.meta.url));
const names = Object.keys(SCRIPTS) as ScriptName[];
const kebab = (name: string) => scriptFile(name).slice(0, -'.lua'.length);

describe('the Redis store scripts', () => {
  it('reads every declared script with the fragments it uses, each ending in what it returns', () => {
    for (const name of names) {
      const lua = luaOf(name);
      expect(lua, name).toMatch(/\breturn\b[^\n]*\n?$/);
      const parts = [
        ...((SCRIPTS[name] as { uses?: readonly string[] }).uses ?? []).map((l) => `lib/${l}`),
        kebab(name),
      ];
      let at = -1;
      for (const part of parts) {
        const found = lua.indexOf(readFileSync(`${dir}${part}.lua`, 'utf8'));
        expect(found, `${name}: ${part}.lua in order`).toBeGreaterThan(at);
        at = found;
      }
    }
  });

  it('has no script file or fragment that nothing declares', () => {
    const declared = new Set(names.map(kebab));
    const used = new Set(names.flatMap((n) => (SCRIPTS[n] as { uses?: readonly string[] }).uses ?? []));
    const files = readdirSync(dir).filter((f) => f.endsWith('.lua'));
    const libs = readdirSync(`${dir}lib`).filter((f) => f.endsWith('.lua'));
    expect(files.map((f) => f.slice(0, -4)).filter((f) => !declared.has(f))).toEqual([]);
    expect(libs.map((f) => f.slice(0, -4)).filter((f) => !used.has(f))).toEqual([]);
  });

  it('declares how many arguments are keys for every script but those given their count at each call', () => {
    // Each of these takes a number of keys that varies with the call: the topics, caches or items it names.
    const given = names.filter((n) => SCRIPTS[n].keys === 'given');
    expect(given).toEqual(['reset', 'restore', 'changeCaches', 'readItems', 'commitItems', 'dropItems', 'usageLimit']);
    for (const name of names) {
      if (SCRIPTS[name].keys === 'given') continue;
      const highest = Math.max(0, ...[...luaOf(name).matchAll(/KEYS\[(\d+)\]/g)].map((m) => Number(m[1])));
      expect(highest, `${name} uses KEYS up to ${highest}`).toBeLessThanOrEqual(SCRIPTS[name].keys);
    }
  });

  it('builds no key from its arguments, and reads nothing a fragment leaves behind: fragments are local functions', () => {
    for (const name of names) {
      const lua = luaOf(name);
      // A key is KEYS[n] or a value taken from it: never ARGV joined into a name.
      for (const call of lua.matchAll(/redis\.call\('(?:DEL|SET|GET|EXISTS|HSET|XADD|ZADD|SADD)', ([^,)]+)/g))
        expect(call[1], `${name}: ${call[0]}`).not.toMatch(/ARGV\[\d+\] \.\./);
    }
    const libs = readdirSync(`${dir}lib`).filter((f) => f.endsWith('.lua'));
    for (const lib of libs) {
      const code = readFileSync(`${dir}lib/${lib}`, 'utf8')
        .split('\n')
        .filter((line) => !line.startsWith('--'));
      // Nothing at the top level but the function: its body is indented.
      expect(code[0], lib).toMatch(/^local function \w+\(/);
      expect(
        code.filter((line) => line !== '' && !line.startsWith(' ')),
        lib,
      ).toEqual([code[0], 'end']);
    }
  });
});
