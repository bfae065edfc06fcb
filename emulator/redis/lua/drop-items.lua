-- KEYS: item-usage (hash: count, bytes), item-version (the last version given), the cache's meta
-- hash, then the items' keys.
-- ARGV: the items channel, the cache, the limit (drop items that expire at or before it; 'all':
-- every one), then each item's member (its key's bytes in base64url), in the order of KEYS.
-- Drops each item its meta still names within the limit under one new version, keeps the usage
-- counts, announces `<version> {"c":cache,"d":[members]}` and returns the version (0: nothing
-- was dropped, nothing announced).
local limit = ARGV[3] == 'all' and math.huge or tonumber(ARGV[3])
local dropped = {}
for i = 4, #ARGV do
  local meta = redis.call('HGET', KEYS[3], ARGV[i])
  if meta then
    local size, expires = string.match(meta, '^%d+ (%d+) (%S+)')
    if tonumber(expires) <= limit then
      redis.call('DEL', KEYS[i])
      redis.call('HDEL', KEYS[3], ARGV[i])
      redis.call('HINCRBY', KEYS[1], 'count', -1)
      redis.call('HINCRBY', KEYS[1], 'bytes', -tonumber(size))
      dropped[#dropped + 1] = ARGV[i]
    end
  end
end
if #dropped == 0 then return 0 end
local version = redis.call('INCR', KEYS[2])
redis.call('PUBLISH', ARGV[1], version .. ' ' .. cjson.encode({ c = ARGV[2], d = dropped }))
return version
