-- @claim: lease the oldest waiting job to a worker and bump its fence.
-- KEYS[1] = emq:{q}:wait   KEYS[2] = emq:{q}:active
-- ARGV[1] = job key prefix (emq:{q}:job:)   ARGV[2] = now (ms)   ARGV[3] = lease (ms)
local popped = redis.call('ZPOPMIN', KEYS[1])
if #popped == 0 then return false end
local id = popped[1]
local jk = ARGV[1] .. id
local att = redis.call('HINCRBY', jk, 'attempts', 1)   -- the fence: +1 per grant
redis.call('HSET', jk, 'state', 'active')
redis.call('ZADD', KEYS[2], tonumber(ARGV[2]) + tonumber(ARGV[3]), id)
return {id, redis.call('HGET', jk, 'payload'), att}     -- the worker carries att, presents it back
