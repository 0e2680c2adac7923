#!lua name=corpus_module
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL module_set decided
-- Helpers kept in a table, as Lua modules write them (`function M.touch`, a field; a
-- constructor's `{ mark = function }` of a local).
local M = {}
function M.touch(key)
  return redis.call('SET', key, 'v')
end
local ops = { mark = function(key) return redis.call('SET', key, 'v') end }
redis.register_function('module_set', function(keys, args)
  M.touch(keys[1])
  return ops.mark(args[1])
end)
