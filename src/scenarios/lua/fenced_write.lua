-- fenced write: accept only a token >= the highest token this resource has seen
-- KEYS[1] = the highest token seen   KEYS[2] = the resource's data
-- ARGV[1] = the writer's fencing token   ARGV[2] = what it writes
-- A token is a plain decimal integer of at most 15 digits, which a Lua number holds exactly:
-- tonumber alone would also take 1e3, 0x22, " 34" and 34.0.
local function as_token(text)
  if #text == 0 or #text > 15 then return nil end
  for i = 1, #text do
    local b = string.byte(text, i)
    if b < 48 or b > 57 then return nil end
  end
  return tonumber(text)
end
local stored = redis.call("GET", KEYS[1]) or "0"
local max_seen = as_token(stored)
local token = as_token(ARGV[1])
if not token or not max_seen then
  return redis.error_reply("ERR fencing tokens must be decimal integers of at most 15 digits")
end
if token < max_seen then
  return redis.error_reply("FENCED token " .. ARGV[1] .. " < max seen " .. stored)
end
redis.call("SET", KEYS[1], ARGV[1])
redis.call("SET", KEYS[2], ARGV[2])
return token
