#!lua name=corpus_scopes
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL scoped_reader
-- Two local helpers named `touch`, each in its own `do` block: the writer's writes, the
-- reader's (`no-writes`) reads; and a parameter `touch` that shadows the helper.
do
  local function touch(key)
    return redis.call('SET', key, 'v')
  end
  redis.register_function('scoped_writer', function(keys, args) return touch(keys[1]) end)
  redis.register_function('scoped_calls_back', function(keys, touch) return touch end)
end
do
  local function touch(key)
    return redis.call('GET', key)
  end
  redis.register_function{
    function_name = 'scoped_reader',
    callback = function(keys, args) return touch(keys[1]) end,
    flags = { 'no-writes' },
  }
end
