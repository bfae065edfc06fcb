-- KEYS: fault counts. ARGV: rule id, matched, fired, delivered (added), channel. Returns {m, f, d}.
local m = redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':m', ARGV[2])
local f = redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':f', ARGV[3])
local d = redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':d', ARGV[4])
announce_counts(ARGV[5], ARGV[1], m, f, d)
return {m, f, d}
