-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- No shebang: `redis.pcall` of an ARGV key as a statement, which the server refuses on
-- another node ("non local key"): the error is dropped, and the script goes on.
redis.pcall('SET', ARGV[1], 'v')
return redis.call('SET', KEYS[1], 'v')
