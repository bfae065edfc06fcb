-- KEYS: hash, stream, topics, last-page, page-floor. ARGV: id, proposed page, channel, retention,
-- value (JSON). Numbers the message, retains it (trimmed to the retention), announces it.
-- Returns {page, number}.
-- Creates the topic first when it does not exist (lib/ensure.lua).
local page = ensure(KEYS[1], KEYS[3], KEYS[4], KEYS[5], ARGV[1], ARGV[2])
local seq = redis.call('HINCRBY', KEYS[1], 'next', 1) - 1
redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[4], seq .. '-1', 'v', ARGV[5])
redis.call('PUBLISH', ARGV[3], '{"k":"p","id":' .. ARGV[1] .. ',"page":' .. string.format('%d', page) .. ',"seq":' .. seq .. ',"v":' .. ARGV[5] .. '}')
return {page, seq}
