#!lua name=corpus_flags_variable
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL flagged_writer
-- The flags kept in a local table and passed by name: `no-writes`, and the function writes.
local read_only = { 'no-writes' }
redis.register_function{
  function_name = 'flagged_writer',
  callback = function(keys, args) return redis.call('SET', keys[1], 'v') end,
  flags = read_only,
}
