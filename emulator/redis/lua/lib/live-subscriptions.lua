-- The subscriptions of the live replicas in a cache's hash (replica -> count): a replica counts
-- while its liveness key (prefix .. replica) exists; `drop` deletes the fields of those that do not.
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
