-- KEYS: hash, stream, topics, last-page, page-floor. ARGV: id, proposed page, channel.
-- Creates the topic (lib/ensure.lua) and announces it. Returns the page.
local page, created = ensure(KEYS[1], KEYS[3], KEYS[4], KEYS[5], ARGV[1], ARGV[2])
if created then
  redis.call('PUBLISH', ARGV[3], '{"k":"n","id":' .. ARGV[1] .. ',"page":' .. string.format('%d', page) .. '}')
end
return page
