#!lua
-- a lock with a fencing token: the owner, and a counter that grows with each holder
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return false
