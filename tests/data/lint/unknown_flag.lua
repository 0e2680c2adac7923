#!lua flags=allow-undeclared-keys
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- Dragonfly's flag in the shebang: Redis and Valkey refuse the script.
return redis.call('GET', KEYS[1])
