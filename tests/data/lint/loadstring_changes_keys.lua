-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- Code built at run time changes KEYS: KEYS[1] read after it is not known.
loadstring('KEYS[1] = ARGV[1]')()
return redis.call('SET', KEYS[1], 'x')
