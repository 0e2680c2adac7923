-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- A feature test: the call runs only where the field is, and no server has this one
-- (lua-cjson's newer option), so every server runs the script.
if cjson.decode_array_with_array_mt then
  cjson.decode_array_with_array_mt(true)
end
return redis.call('SET', KEYS[1], cjson.encode({ owner = ARGV[1] }))
