#!lua flags=no-writes
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A write in a read-only script: refused wherever the keys are.
return redis.call('SET', KEYS[1], 'v')
