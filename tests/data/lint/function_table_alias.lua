#!lua name=corpus_table_alias
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL table_alias
-- A table of the API's functions made in the library's body: FUNCTION LOAD reads
-- `redis.call` there, where it does not exist, and refuses the library.
local r = { call = redis.call }
redis.register_function('table_alias', function(keys, args)
  return r.call('SET', keys[1], 'v')
end)
