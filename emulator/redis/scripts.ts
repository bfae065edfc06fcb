import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { compiled, packageRoot } from '../package-root.js';

// The Lua scripts of a Redis store, one file each in lua/ (fragments they share in lua/lib/, each
// a local function taking what it works on: nothing a fragment leaves behind is read after it).
// Each runs atomically in Redis; those that change shared state announce it on the store's
// channel, so every replica applies the changes in the order Redis made them. Channel messages
// are JSON objects, `k` saying what: a topic created 'n', published 'p', its page changed 'c',
// every topic reset 'r' or loaded 'l', a control-plane change 'o', a fault rule's counters 'f'.
//
// Each script is declared here once: the fragments put before it and how many of its arguments
// are keys ('given': the caller passes the number first). ioredis sends a script once and runs
// it by its SHA after (loading it again after a Redis restart).

interface ScriptSpec {
  keys: number | 'given';
  uses?: readonly string[];
}

export const SCRIPTS = {
  // The topics (redis-store.ts).
  create: { keys: 5, uses: ['ensure'] },
  publish: { keys: 5, uses: ['ensure'] },
  changePage: { keys: 5 },
  reset: { keys: 'given', uses: ['forget-all'] },
  restore: { keys: 'given', uses: ['forget-all'] },
  resume: { keys: 3 },
  changeCaches: { keys: 'given' },
  // The cache's items (cache-items.ts).
  readItems: { keys: 'given' },
  commitItems: { keys: 'given' },
  dropItems: { keys: 'given' },
  // The control plane's log and the fault rules' ledger (shared-control.ts).
  shareChange: { keys: 5 },
  compactControl: { keys: 2 },
  considerFault: { keys: 1, uses: ['fault-counters', 'announce-counts'] },
  countFault: { keys: 1, uses: ['announce-counts'] },
  // The account limits (limit-counts.ts).
  admitLimit: { keys: 3, uses: ['counts-in', 'roll', 'redis-now', 'live-subscriptions'] },
  deliveredLimit: { keys: 1, uses: ['counts-in', 'roll'] },
  releaseLimit: { keys: 1 },
  usageLimit: { keys: 'given', uses: ['counts-in', 'redis-now', 'live-subscriptions'] },
  keepAlive: { keys: 1, uses: ['redis-now'] },
  // The replicas' registry and the event relay (replicas.ts, event-relay.ts).
  reserveReplica: { keys: 3, uses: ['redis-now', 'prune-replicas'] },
  replicaHeartbeat: { keys: 3, uses: ['redis-now'] },
  replicaMembers: { keys: 2, uses: ['redis-now', 'prune-replicas'] },
  eventReaders: { keys: 1, uses: ['redis-now'] },
} as const satisfies Record<string, ScriptSpec>;

export type ScriptName = keyof typeof SCRIPTS;

/**
 * A connection the scripts are defined on: each a command taking its keys, then its arguments
 * (bytes as Buffers); `<name>Buffer` answers bulk strings as Buffers.
 */
export type ScriptedRedis = Redis &
  Record<ScriptName | `${ScriptName}Buffer`, (...args: (string | number | Buffer)[]) => Promise<unknown>>;

/** The scripts' folder: beside this module in the sources, copied into dist/ by the build (scripts/copy-lua.mjs). */
const LUA = join(packageRoot, ...(compiled ? ['dist'] : []), 'emulator', 'redis', 'lua');
const read = (file: string): string => readFileSync(join(LUA, file), 'utf8');
/** A script's file in lua/: its name in kebab case (`changePage` → `change-page.lua`). */
export const scriptFile = (name: string): string => `${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.lua`;

/** The Lua a script runs: the fragments it uses, in order, then its own file. */
export function luaOf(name: ScriptName): string {
  const spec: ScriptSpec = SCRIPTS[name];
  return [...(spec.uses ?? []).map((lib) => read(`lib/${lib}.lua`)), read(scriptFile(name))].join('\n');
}

/** Defines every script on `redis` (the store's command connection). */
export function defineScripts(redis: Redis): ScriptedRedis {
  for (const name of Object.keys(SCRIPTS) as ScriptName[]) {
    const { keys } = SCRIPTS[name] as ScriptSpec;
    redis.defineCommand(name, keys === 'given' ? { lua: luaOf(name) } : { lua: luaOf(name), numberOfKeys: keys });
  }
  return redis as ScriptedRedis;
}
