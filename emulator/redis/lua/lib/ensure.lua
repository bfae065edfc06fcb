-- Creates a topic when it does not exist (its hash and the topics set, last-page and page-floor
-- keys as given): its page is `proposed` (epoch seconds, from the replica's page source), raised
-- above the floor a reset or restore left. Returns its page and whether it was created now.
local function ensure(hash, topics, last_page, page_floor, id, proposed)
  local page = tonumber(redis.call('HGET', hash, 'page'))
  if page then return page, false end
  page = math.max(tonumber(proposed), tonumber(redis.call('GET', page_floor) or '0') + 1)
  redis.call('HSET', hash, 'page', page, 'next', 1)
  redis.call('SADD', topics, id)
  if page > tonumber(redis.call('GET', last_page) or '0') then redis.call('SET', last_page, page) end
  return page, true
end
