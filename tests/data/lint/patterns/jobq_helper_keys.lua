#!lua name=jobq2
-- the same queue, its helper taking the function's keys
-- FCALL dequeue2
local function job_key(keys, id)
  return keys[3] .. id
end
redis.register_function('dequeue2', function(keys, args)
  local id = redis.call('RPOP', keys[2])
  if not id then
    return false
  end
  redis.call('INCR', keys[1])
  return redis.call('HGET', job_key(keys, id), 'data')
end)
