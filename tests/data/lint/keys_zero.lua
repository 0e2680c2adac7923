-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- KEYS counted from 0, as in most languages: KEYS[0] is nil.
return redis.call('SET', KEYS[0], 'v')
