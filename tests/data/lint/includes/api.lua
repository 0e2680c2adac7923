local r = redis
