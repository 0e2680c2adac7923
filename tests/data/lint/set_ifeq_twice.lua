-- call: keys=1
-- IFEQ twice: Valkey 9.1, which takes IFEQ, refuses it ("syntax error"); Redis 7.0 and
-- Valkey 8.0 refuse IFEQ itself.
return redis.call('SET', KEYS[1], 'v', 'IFEQ', 'x', 'IFEQ', 'y')
