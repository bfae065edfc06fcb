-- Creates the topic when it does not exist: ARGV[2] is the proposed page (epoch seconds, from the
-- replica's page source), raised above the floor a reset or restore left. Sets `page` and
-- `created` for what follows. KEYS as the topic scripts': hash, stream, topics, last-page, page-floor.
local page = tonumber(redis.call('HGET', KEYS[1], 'page'))
local created = false
if not page then
  page = math.max(tonumber(ARGV[2]), tonumber(redis.call('GET', KEYS[5]) or '0') + 1)
  redis.call('HSET', KEYS[1], 'page', page, 'next', 1)
  redis.call('SADD', KEYS[3], ARGV[1])
  if page > tonumber(redis.call('GET', KEYS[4]) or '0') then redis.call('SET', KEYS[4], page) end
  created = true
end
