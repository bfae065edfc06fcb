// The Lua scripts that count the account limits in Redis for every replica, each atomic.
// A cache's window is a hash (start, count): the caller passes the window's start by the
// emulator's clock (shared by the replicas), never Redis's TIME, so a frozen or advanced clock
// holds or moves it as in memory. A caller one window behind (a replica a moment late at a
// second's boundary, or not yet told of an advance) counts in the newer window; any other
// start begins a new window, backwards too (the clock was set back).

// Whether a caller at window `start` counts in the stored window (the same, or one window ahead).
const COUNTS_IN = `
local function counts_in(stored, start, length)
  return stored ~= nil and start <= stored and start >= stored - length
end
`;

// The subscriptions of the live replicas in a cache's hash (replica -> count): a replica counts
// while its liveness key (prefix .. replica) exists; \`drop\` deletes the fields of those that do not.
const LIVE_SUBSCRIPTIONS = `
local function live_subscriptions(key, alive_prefix, drop)
  local sum = 0
  local fields = redis.call('HGETALL', key)
  for i = 1, #fields, 2 do
    if redis.call('EXISTS', alive_prefix .. fields[i]) == 1 then
      sum = sum + tonumber(fields[i + 1])
    elseif drop then
      redis.call('HDEL', key, fields[i])
    end
  end
  return sum
end
`;

// Sets `window` (the start counted in) and `count` (its operations so far).
const ROLL = `${COUNTS_IN}
local window = ARGV[1]
local count = 0
local stored = redis.call('HGET', KEYS[1], 'start')
local start = tonumber(ARGV[1])
if counts_in(tonumber(stored), start, tonumber(ARGV[2])) then
  window = stored
  count = tonumber(redis.call('HGET', KEYS[1], 'count') or '0')
else
  redis.call('HSET', KEYS[1], 'start', window, 'count', 0)
end
`;

/**
 * KEYS: the cache's window, the cache's subscriptions (hash: replica -> its count). ARGV: window
 * start, window length (ms), operations limit, '1' for a publish (counted now) or '0' for a
 * subscribe, subscriptions limit, replica, the liveness keys' prefix, their lifetime (ms).
 * A subscribe admitted is one more subscription of this replica until it is released; the
 * counts of replicas whose liveness key has expired are dropped. Returns [verdict, count,
 * window start]: 0 admitted (count: the operations), 1 operations refused, 2 subscriptions
 * refused (count: the subscriptions).
 */
export const ADMIT = `${ROLL}${LIVE_SUBSCRIPTIONS}
if count + 1 > tonumber(ARGV[3]) then return {1, count, tonumber(window)} end
if ARGV[4] == '1' then return {0, redis.call('HINCRBY', KEYS[1], 'count', 1), tonumber(window)} end
local waiting = live_subscriptions(KEYS[2], ARGV[7], true)
if waiting >= tonumber(ARGV[5]) then return {2, waiting, tonumber(window)} end
redis.call('HINCRBY', KEYS[2], ARGV[6], 1)
redis.call('SET', ARGV[7] .. ARGV[6], '1', 'PX', ARGV[8])
return {0, count, tonumber(window)}`;

/** KEYS: the cache's window. ARGV: window start, window length, items delivered. Returns [count, window start]. */
export const DELIVERED = `${ROLL}
return {redis.call('HINCRBY', KEYS[1], 'count', ARGV[3]), tonumber(window)}`;

/** KEYS: the cache's subscriptions. ARGV: replica. One subscription of this replica ended (never below zero). */
export const RELEASE = `
local n = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if n > 1 then redis.call('HINCRBY', KEYS[1], ARGV[1], -1) elseif n == 1 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return n`;

/**
 * KEYS: each cache's window, then its subscriptions, pair after pair. ARGV: window start, window
 * length, the liveness keys' prefix. Every replica's usage, read without changing anything: the
 * operations of the window a caller at that start would count in (as ROLL decides), and the
 * subscriptions of live replicas, summed over the caches. Returns [operations, subscriptions].
 */
export const USAGE = `${COUNTS_IN}${LIVE_SUBSCRIPTIONS}
local operations = 0
local subscriptions = 0
local start = tonumber(ARGV[1])
for k = 1, #KEYS, 2 do
  if counts_in(tonumber(redis.call('HGET', KEYS[k], 'start')), start, tonumber(ARGV[2])) then
    operations = operations + tonumber(redis.call('HGET', KEYS[k], 'count') or '0')
  end
  subscriptions = subscriptions + live_subscriptions(KEYS[k + 1], ARGV[3], false)
end
return {operations, subscriptions}`;
