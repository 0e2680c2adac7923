-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `unpack(ARGV)` as keys, placed with the values given as if written out: `EXISTS
-- ARGV[1]`, a key of its own, runs while its slot is on the node that runs the script.
redis.call('SET', KEYS[1], 'v')
return redis.call('EXISTS', unpack(ARGV))
