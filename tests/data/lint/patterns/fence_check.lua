#!lua flags=no-writes
-- a write guarded by the fencing token: only the holder of the newest token passes
local owner = redis.call('GET', KEYS[1])
if owner ~= ARGV[1] then
  return redis.error_reply('not the owner')
end
local fence = tonumber(redis.call('GET', KEYS[2]))
if fence ~= tonumber(ARGV[2]) then
  return redis.error_reply('stale token')
end
return redis.call('PTTL', KEYS[1])
