-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A token bucket kept in a hash (tokens, last refill), as public rate limiters write it.
redis.replicate_commands()
local rate, capacity = 5, 10
local t = redis.call('TIME')
local now = tonumber(t[1])
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(bucket[1]) or capacity
local ts = tonumber(bucket[2]) or now
tokens = math.min(capacity, tokens + (now - ts) * rate)
local allowed = tokens >= 1
if allowed then tokens = tokens - 1 end
redis.call('HSET', KEYS[1], 'tokens', tokens, 'ts', now)
redis.call('EXPIRE', KEYS[1], math.ceil(capacity / rate) * 2)
return allowed and 1 or 0
