-- KEYS: alive (sorted set: replica -> when its counts stop counting), then each cache's window and
-- its subscriptions, pair after pair (their number given at each call). ARGV: window start,
-- window length. Every replica's usage, read without changing anything: the operations of the
-- window a caller at that start would count in (as lib/roll.lua decides), and the subscriptions
-- of live replicas, summed over the caches. Returns {operations, subscriptions}.
local operations = 0
local subscriptions = 0
local start = tonumber(ARGV[1])
local now = redis_now()
for k = 2, #KEYS, 2 do
  if counts_in(tonumber(redis.call('HGET', KEYS[k], 'start')), start, tonumber(ARGV[2])) then
    operations = operations + tonumber(redis.call('HGET', KEYS[k], 'count') or '0')
  end
  subscriptions = subscriptions + live_subscriptions(KEYS[k + 1], KEYS[1], now, false)
end
return {operations, subscriptions}
