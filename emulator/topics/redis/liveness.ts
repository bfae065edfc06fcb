// How replicas on one store tell that another is still there: a registration in a sorted set
// scored by when it expires, on Redis's clock, refreshed on a heartbeat (the replicas' registry,
// replicas.ts; the event stream's readers, event-relay.ts).

/** How long a registration lasts without a heartbeat: the bound on how long a killed replica fails gathered reads. */
export const HEARTBEAT_TTL_MS = 5000;
export const HEARTBEAT_EVERY_MS = 1000;

/** Lua: `now`, Redis's clock in milliseconds (replicas' clocks need not agree). */
export const REDIS_NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
