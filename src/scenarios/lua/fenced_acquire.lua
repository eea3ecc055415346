-- fenced acquire: take the lock, then hand out the next fencing token
-- KEYS[1] = the lock   KEYS[2] = the fencing counter
-- ARGV[1] = the client's token   ARGV[2] = the lease in ms
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
  return redis.call("INCR", KEYS[2])
end
return 0
