-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `unpack` of ARGV and KEYS counted with the values given: `SET KEYS[1] ARGV[1]`, `DEL
-- KEYS[1]` (`unpack(ARGV, 2)` of one value gives none), `EXISTS KEYS[1]`: all run.
redis.call('SET', KEYS[1], unpack(ARGV, 1))
redis.call('DEL', KEYS[1], unpack(ARGV, 2))
return redis.call('EXISTS', unpack(KEYS))
