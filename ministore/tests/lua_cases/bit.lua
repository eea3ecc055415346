-- bit (LuaBitOp) as Redis ships it.
return {bit.tobit(1), bit.tobit(-1), bit.tobit(2^32), bit.tobit(2^32 + 5), bit.tobit(0xffffffff)}
return {bit.tobit(1.5), bit.tobit(2.5), bit.tobit(-1.5), bit.tobit(0.4999)}
return {bit.tobit(2^52), bit.tobit(2^53 + 3), bit.tobit(1e20), bit.tobit(-1e20)}
return {bit.tobit(1/0), bit.tobit(0/0), bit.tobit('12'), bit.tobit('0x10')}
return bit.tobit('x')
return bit.tobit()
return bit.tobit({})
return {bit.tohex(255), bit.tohex(255, 2), bit.tohex(255, -4), bit.tohex(-1), bit.tohex(0x12345678, 3)}
return {bit.tohex(1, 0), bit.tohex(1, 20), bit.tohex(1, -20), bit.tohex(-1, -8)}
return bit.tohex(1, nil)
return bit.tohex(1, -2^31)
return {bit.bnot(0), bit.bnot(-1), bit.bnot(5)}
return {bit.band(0xff, 0x0f), bit.band(-1, 7, 3), bit.band(5)}
return {bit.bor(1, 2, 4, 8), bit.bor(0), bit.bor(-2^31, 1)}
return {bit.bxor(5, 3), bit.bxor(1, 1, 1), bit.bxor(-1, 0)}
return bit.band()
return bit.band(1, 'x')
return bit.bor(1, nil)
return {bit.lshift(1, 4), bit.lshift(1, 31), bit.lshift(1, 32), bit.lshift(1, 33), bit.lshift(-1, 1)}
return {bit.rshift(256, 4), bit.rshift(-1, 28), bit.rshift(-1, 0), bit.rshift(1, -1)}
return {bit.arshift(-256, 4), bit.arshift(256, 4), bit.arshift(-1, 31)}
return {bit.rol(0x12345678, 8), bit.ror(0x12345678, 8), bit.rol(1, 32), bit.ror(1, 1)}
return {bit.bswap(0x12345678), bit.bswap(1), bit.bswap(-1)}
return bit.lshift(1)
return bit.rol()
return bit.nope
local t = {} for k in pairs(bit) do t[#t + 1] = k end table.sort(t) return t
return bit.tohex(bit.bxor(0xdeadbeef, 0xcafebabe))
return {bit.band(2^31 + 2^31, 1), bit.tobit(-2^31 - 1)}
