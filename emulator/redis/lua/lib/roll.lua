-- A cache's operations window (hash: start, count) for a caller at window `start` of `length` ms:
-- the start counted in and its operations so far, starting a new window unless the caller counts
-- in the stored one (lib/counts-in.lua).
local function roll(window_key, start, length)
  local stored = redis.call('HGET', window_key, 'start')
  if counts_in(tonumber(stored), tonumber(start), tonumber(length)) then
    return stored, tonumber(redis.call('HGET', window_key, 'count') or '0')
  end
  redis.call('HSET', window_key, 'start', start, 'count', 0)
  return start, 0
end
