-- call: keys=1 decided
-- HSETEX's numfields counts the field-value pairs after it: Valkey 9.1 refuses 2 before one
-- pair ("numfields should be greater than 0 and match the provided number of fields") and
-- takes 2 before two; Redis 7.0 and Valkey 8.0 have no HSETEX ("unknown command").
redis.call('HSETEX', KEYS[1], 'FIELDS', '2', 'f', 'v', 'g', 'w')
return redis.call('HSETEX', KEYS[1], 'FIELDS', '2', 'f', 'v')
