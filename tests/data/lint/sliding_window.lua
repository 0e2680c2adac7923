-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A sliding-window rate limiter on a sorted set, as public rate limiters write it:
-- trim the window, count, add this request, expire the set.
local key = KEYS[1]
local window = tonumber(ARGV[2]) or 60000
local limit = tonumber(ARGV[3]) or 10
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
local count = redis.call('ZCARD', key)
if count < limit then
  redis.call('ZADD', key, now, now .. ':' .. count)
  redis.call('PEXPIRE', key, window)
  return {1, count + 1}
end
return {0, count}
