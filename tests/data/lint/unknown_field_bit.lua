-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A typo in `bit`: `bit.bxr` for `bit.bxor`, in a branch that runs (the key is new).
if redis.call('SETNX', KEYS[1], 5) == 1 then
  return redis.call('SET', KEYS[1], bit.bxr(5, 3))
end
return 0
