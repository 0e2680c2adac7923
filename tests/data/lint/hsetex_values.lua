-- call: keys=1 decided
-- Valkey 9.1's field expiry: HSETEX takes EX 0 but refuses `FIELDS 0`, read after its
-- options ("numfields should be greater than 0 and match the provided number of fields");
-- Redis 7.0 and Valkey 8.0 have no HSETEX ("unknown command").
redis.call('HSETEX', KEYS[1], 'EX', '0', 'FIELDS', '1', 'f', 'v')
return redis.call('HSETEX', KEYS[1], 'FIELDS', '0', 'f', 'v')
