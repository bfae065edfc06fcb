-- The subscriptions of the live replicas in a cache's hash (replica -> count): a replica counts
-- while its entry in the alive sorted set (replica -> expiry, Redis's clock) is after `now`;
-- `drop` deletes the fields of those that are not.
local function live_subscriptions(key, alive, now, drop)
  local sum = 0
  local fields = redis.call('HGETALL', key)
  for i = 1, #fields, 2 do
    if tonumber(redis.call('ZSCORE', alive, fields[i]) or '0') > now then
      sum = sum + tonumber(fields[i + 1])
    elseif drop then
      redis.call('HDEL', key, fields[i])
    end
  end
  return sum
end
