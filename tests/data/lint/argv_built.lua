-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A key built from ARGV: known only with --argv.
redis.call('SET', KEYS[1], 'v')
return redis.call('SET', ARGV[1] .. ':copy', 'v')
