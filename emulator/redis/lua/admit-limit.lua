-- KEYS: the cache's window, the cache's subscriptions (hash: replica -> its count). ARGV: window
-- start, window length (ms), operations limit, '1' for a publish (counted now) or '0' for a
-- subscribe, subscriptions limit, replica, the liveness keys' prefix, their lifetime (ms).
-- A subscribe admitted is one more subscription of this replica until it is released; the
-- counts of replicas whose liveness key has expired are dropped. Returns {verdict, count,
-- window start}: 0 admitted (count: the operations), 1 operations refused, 2 subscriptions
-- refused (count: the subscriptions).
if count + 1 > tonumber(ARGV[3]) then return {1, count, tonumber(window)} end
if ARGV[4] == '1' then return {0, redis.call('HINCRBY', KEYS[1], 'count', 1), tonumber(window)} end
local waiting = live_subscriptions(KEYS[2], ARGV[7], true)
if waiting >= tonumber(ARGV[5]) then return {2, waiting, tonumber(window)} end
redis.call('HINCRBY', KEYS[2], ARGV[6], 1)
redis.call('SET', ARGV[7] .. ARGV[6], '1', 'PX', ARGV[8])
return {0, count, tonumber(window)}
