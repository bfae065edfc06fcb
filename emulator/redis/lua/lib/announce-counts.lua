-- Tells every replica a fault rule's counters on `channel`.
local function announce_counts(channel, id, m, f, d)
  redis.call('PUBLISH', channel, '{"k":"f","id":' .. cjson.encode(id) .. ',"m":' .. m .. ',"f":' .. f .. ',"d":' .. d .. '}')
end
