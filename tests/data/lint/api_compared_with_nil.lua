-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `redis` compared with nil (a feature test, as Valkey-style code does with `server`):
-- no command runs through it, so there is nothing to follow.
if redis ~= nil and nil ~= redis and not (redis == nil) then
  return redis.call('GET', KEYS[1])
end
return 0
