-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `SELECT ARGV[1]`, the database the caller passes: with ARGV given the lint reads it
-- (here a key's name, which every server refuses as no integer; `--argv 0` runs).
redis.call('select', ARGV[1])
return redis.call('INCR', KEYS[1])
