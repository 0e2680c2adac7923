-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- Valkey's `server` compared with nil, as code written for both servers tests it: Valkey
-- runs it (nothing to follow), Redis 7.0 has no global `server` and refuses the read.
if server ~= nil then
  return server.call('GET', KEYS[1])
end
return redis.call('GET', KEYS[1])
