-- Redis's clock in milliseconds (replicas' clocks need not agree).
local function redis_now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
