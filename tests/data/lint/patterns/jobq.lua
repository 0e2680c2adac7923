#!lua name=jobq
-- a job queue as a Functions library: jobs in hashes under a prefix key
-- FCALL dequeue
local function job_key(prefix, id)
  return prefix .. id
end
redis.register_function('enqueue', function(keys, args)
  local id = redis.call('INCR', keys[1])
  redis.call('HSET', job_key(keys[3], id), 'data', args[1])
  redis.call('LPUSH', keys[2], id)
  return id
end)
redis.register_function('dequeue', function(keys, args)
  local id = redis.call('RPOP', keys[2])
  if not id then
    return false
  end
  local key = job_key(keys[3], id)
  local data = redis.call('HGET', key, 'data')
  redis.call('DEL', key)
  return data
end)
redis.register_function{
  function_name = 'peek',
  callback = function(keys) return redis.call('LRANGE', keys[2], 0, 9) end,
  flags = { 'no-writes' },
}
