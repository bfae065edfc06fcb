-- Forgets every topic (the topics set, its last-page and page-floor keys as given) when `ids` are
-- all the topics the set holds, `keys[i]` holding the hash and stream of `ids[i]`; the floor keeps
-- later pages above every page handed out. Returns the greatest page handed out; or, changing
-- nothing, nil and the ids the set holds that were not given.
local function forget_all(topics, last_page, page_floor, ids, keys)
  local given = {}
  for _, id in ipairs(ids) do given[id] = true end
  local missing = {}
  for _, id in ipairs(redis.call('SMEMBERS', topics)) do
    if not given[id] then missing[#missing + 1] = id end
  end
  if #missing > 0 then return nil, missing end
  for _, pair in ipairs(keys) do redis.call('DEL', pair[1], pair[2]) end
  redis.call('DEL', topics)
  local last = tonumber(redis.call('GET', last_page) or '0')
  redis.call('SET', page_floor, last)
  return last
end
