-- `now`: Redis's clock in milliseconds (replicas' clocks need not agree).
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
