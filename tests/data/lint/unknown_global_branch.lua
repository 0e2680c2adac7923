-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A typo in a branch: `ARG[1]` for `ARGV[1]`, read only when the key is new (here it is).
if redis.call('SET', KEYS[1], 'v', 'NX') then
  redis.call('APPEND', KEYS[1], ARG[1])
end
return 1
