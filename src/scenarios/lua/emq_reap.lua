-- reaper: move every job whose lease has run out from active back to wait.
-- KEYS[1] = emq:{q}:active   KEYS[2] = emq:{q}:wait
-- ARGV[1] = job key prefix (emq:{q}:job:)   ARGV[2] = now (ms)
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
for _, id in ipairs(expired) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZADD', KEYS[2], tonumber(ARGV[2]), id)
  redis.call('HSET', ARGV[1] .. id, 'state', 'waiting')
end
return expired
