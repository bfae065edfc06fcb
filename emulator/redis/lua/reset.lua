-- KEYS: topics, last-page, page-floor. ARGV: prefix, channel, replica.
-- Forgets every topic (lib/forget-all.lua) and announces it. Returns the greatest page handed out.
redis.call('PUBLISH', ARGV[2], '{"k":"r","from":' .. cjson.encode(ARGV[3]) .. ',"last":' .. string.format('%d', last) .. '}')
return last
