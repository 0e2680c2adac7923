#!lua
-- a rate limiter over two sliding windows (a second, a minute), one sorted set each
local now = tonumber(ARGV[1])
local limits = { tonumber(ARGV[2]), tonumber(ARGV[3]) }
local windows = { 1000, 60000 }
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, 0, now - windows[i])
  if redis.call('ZCARD', key) >= limits[i] then
    return 0
  end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[4])
  redis.call('PEXPIRE', key, windows[i])
end
return 1
