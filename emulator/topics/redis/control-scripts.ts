// The Lua scripts of the control plane's part of a Redis store (shared-control.ts): each runs
// atomically in Redis and announces what it changed on the channel, like the topics' scripts.
// Channel messages: {k:'o', from, n, c} (a control-plane change, numbered) and
// {k:'f', id, m, f, d} (a fault rule's counters: matched, fired, delivered).

// A rule's three counters, read into m, f, d.
const COUNTERS = `
local counts = redis.call('HMGET', KEYS[1], ARGV[1] .. ':m', ARGV[1] .. ':f', ARGV[1] .. ':d')
local m, f, d = tonumber(counts[1] or '0'), tonumber(counts[2] or '0'), tonumber(counts[3] or '0')
`;

const ANNOUNCE_COUNTS = (channel: string) => `
redis.call('PUBLISH', ${channel}, '{"k":"f","id":' .. cjson.encode(ARGV[1]) .. ',"m":' .. m .. ',"f":' .. f .. ',"d":' .. d .. '}')
`;

/**
 * KEYS: control log, control number, fault counts, fault ids, control base. ARGV: channel,
 * replica, change (JSON). Numbers the change, logs it and announces it. A reset starts the log
 * again (with itself) and forgets every rule's counters; clearing or removing rules forgets
 * theirs. A snapshot's control part replaces them all: the log starts again with it, every
 * rule's counters are the saved ones, and rule ids handed out later exceed the restored ones.
 * Either leaves no compacted state, and refuses one compacted from before it. Returns its number.
 */
export const SHARE_CHANGE = `
local change = cjson.decode(ARGV[3])
local n = redis.call('INCR', KEYS[2])
if change.op == 'reset' or change.op == 'restoreControl' then
  redis.call('DEL', KEYS[1], KEYS[3], KEYS[5])
  redis.call('HSET', KEYS[5], 'n', n - 1)
end
if change.op == 'restoreControl' then
  local last = tonumber(redis.call('GET', KEYS[4]) or '0')
  for _, fault in ipairs(change.control.faults) do
    local id = fault.id
    redis.call('HSET', KEYS[3], id .. ':m', fault.matched, id .. ':f', fault.fired, id .. ':d', fault.delivered or 0)
    last = math.max(last, tonumber(string.sub(id, 2)))
  end
  redis.call('SET', KEYS[4], last)
elseif change.op == 'clearFaults' then
  redis.call('DEL', KEYS[3])
elseif change.op == 'removeFault' then
  redis.call('HDEL', KEYS[3], change.id .. ':m', change.id .. ':f', change.id .. ':d')
end
redis.call('XADD', KEYS[1], n .. '-1', 'r', ARGV[2], 'c', ARGV[3])
redis.call('PUBLISH', ARGV[1], '{"k":"o","from":' .. cjson.encode(ARGV[2]) .. ',"n":' .. n .. ',"c":' .. ARGV[3] .. '}')
return n`;

/**
 * KEYS: control log, control base. ARGV: n, the control state changes 1..n led to (a `compacted`
 * change, JSON). The log's changes up to n are replaced by that state, unless the base is at n
 * or past it already (another compaction, or a reset or snapshot since). Returns the number the
 * log starts after now.
 */
export const COMPACT_CONTROL = `
local n = tonumber(ARGV[1])
local base = tonumber(redis.call('HGET', KEYS[2], 'n') or '0')
if base >= n then return base end
redis.call('HSET', KEYS[2], 'n', n, 'c', ARGV[2])
redis.call('XTRIM', KEYS[1], 'MINID', (n + 1) .. '-0')
return n`;

/**
 * KEYS: fault counts. ARGV: rule id, skip, count (-1: none), afterItems (-1: none), draw (1: this
 * replica's draw lets it fire), channel. One more matching request of a counted rule: refused
 * when its count is used up or fewer than afterItems items were delivered; else counted as
 * matched, and fired once past the skips when the draw allows. Returns {outcome, m, f, d}.
 */
export const CONSIDER_FAULT = `${COUNTERS}
local count, after = tonumber(ARGV[3]), tonumber(ARGV[4])
if (count >= 0 and f >= count) or (after >= 0 and d < after) then return {'refused', m, f, d} end
local outcome = 'passed'
m = redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':m', 1)
if m > tonumber(ARGV[2]) and ARGV[5] == '1' then
  f = redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':f', 1)
  outcome = 'fired'
end
${ANNOUNCE_COUNTS('ARGV[6]')}
return {outcome, m, f, d}`;

/** KEYS: fault counts. ARGV: rule id, matched, fired, delivered (added), channel. Returns {m, f, d}. */
export const COUNT_FAULT = `
local m = redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':m', ARGV[2])
local f = redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':f', ARGV[3])
local d = redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':d', ARGV[4])
${ANNOUNCE_COUNTS('ARGV[5]')}
return {m, f, d}`;
