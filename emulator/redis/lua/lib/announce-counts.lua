-- Tells every replica a fault rule's counters (ARGV[1]: rule id) on `channel`.
local function announce_counts(channel, m, f, d)
  redis.call('PUBLISH', channel, '{"k":"f","id":' .. cjson.encode(ARGV[1]) .. ',"m":' .. m .. ',"f":' .. f .. ',"d":' .. d .. '}')
end
