-- KEYS: generation, last-page, page-floor. ARGV: a new generation, the one this replica saw last
-- ('' at its start), the greatest page it saw. A Redis without the generation this replica saw
-- has lost its state (restarted without persistence, flushed): pages given later exceed every
-- page the replica saw. Returns {generation, the greatest page given or floor}.
local generation = redis.call('GET', KEYS[1])
if not generation then
  generation = ARGV[1]
  redis.call('SET', KEYS[1], generation)
end
local seen = tonumber(ARGV[3])
if ARGV[2] ~= '' and generation ~= ARGV[2] then
  for i = 2, 3 do
    if seen > tonumber(redis.call('GET', KEYS[i]) or '0') then redis.call('SET', KEYS[i], ARGV[3]) end
  end
end
local last = math.max(tonumber(redis.call('GET', KEYS[2]) or '0'), tonumber(redis.call('GET', KEYS[3]) or '0'))
return {generation, string.format('%d', last)}
