-- Forgets every topic (KEYS: topics, last-page, page-floor; ARGV[1]: the prefix); the floor keeps
-- later pages above every page handed out. Sets `last`, the greatest page handed out.
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  redis.call('DEL', ARGV[1] .. 't:' .. id, ARGV[1] .. 's:' .. id)
end
redis.call('DEL', KEYS[1])
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
redis.call('SET', KEYS[3], last)
