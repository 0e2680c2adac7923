#!lua name=corpus_table_alias_inside
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL table_alias_inside
-- A table of the API's functions made inside the function: `r.call(...)` is `redis.call`.
redis.register_function('table_alias_inside', function(keys, args)
  local r = { call = redis.call, pcall = redis.pcall }
  r.call('SET', keys[1], 'v')
  return r.call('SET', args[1], 'v')
end)
