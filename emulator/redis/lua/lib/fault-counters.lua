-- A fault rule's three counters (KEYS[1]: fault counts; ARGV[1]: rule id), read into m, f, d
-- (matched, fired, delivered).
local counts = redis.call('HMGET', KEYS[1], ARGV[1] .. ':m', ARGV[1] .. ':f', ARGV[1] .. ':d')
local m, f, d = tonumber(counts[1] or '0'), tonumber(counts[2] or '0'), tonumber(counts[3] or '0')
