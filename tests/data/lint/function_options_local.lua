#!lua name=corpus_options_local
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL opts
-- The whole table in a local, then registered (`register_function(opts)`).
local opts = {
  function_name = 'opts',
  callback = function(keys, args)
    redis.call('SET', keys[1], 'v')
    return redis.call('SET', args[1], 'v')
  end,
}
redis.register_function(opts)
