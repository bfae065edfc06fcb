-- A fault rule's three counters in the fault counts hash: matched, fired, delivered.
local function fault_counters(counts, id)
  local read = redis.call('HMGET', counts, id .. ':m', id .. ':f', id .. ':d')
  return tonumber(read[1] or '0'), tonumber(read[2] or '0'), tonumber(read[3] or '0')
end
