-- call: keys=2 (KEYS[1], KEYS[2]), decided
-- A loop over a table of the declared keys, held in locals (celery's chord script,
-- `for _, key in ipairs({jkey, tkey, skey, dkey})`): each turn's key is a declared key.
local a, b = KEYS[1], KEYS[2]
for _, key in ipairs({a, b}) do
  redis.call('SET', key, 'x')
end
return 1
