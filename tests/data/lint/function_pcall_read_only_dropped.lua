#!lua name=corpus_pcall_read_only
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL dropped_write
-- A `no-writes` function whose write is protected and its error dropped: refused every
-- time, and the function goes on.
redis.register_function{
  function_name = 'dropped_write',
  callback = function(keys, args)
    redis.pcall('SET', keys[1], 'v')
    return redis.call('GET', keys[1])
  end,
  flags = { 'no-writes' },
}
