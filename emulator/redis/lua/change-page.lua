-- KEYS: hash, stream, topics, last-page, page-floor. ARGV: id, proposed page, channel.
-- A new, greater page; numbering from 1; the old page's messages dropped. Returns the page.
local current = tonumber(redis.call('HGET', KEYS[1], 'page') or '0')
local page = math.max(tonumber(ARGV[2]), current + 1, tonumber(redis.call('GET', KEYS[5]) or '0') + 1)
redis.call('HSET', KEYS[1], 'page', page, 'next', 1)
redis.call('SADD', KEYS[3], ARGV[1])
redis.call('DEL', KEYS[2])
if page > tonumber(redis.call('GET', KEYS[4]) or '0') then redis.call('SET', KEYS[4], page) end
redis.call('PUBLISH', ARGV[3], '{"k":"c","id":' .. ARGV[1] .. ',"page":' .. string.format('%d', page) .. '}')
return page
