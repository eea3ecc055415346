-- The math library of Lua 5.1 as Redis ships it.
return {math.abs(-3), math.abs(3), math.abs(-2.5) * 2, tostring(math.abs(-0))}
return {math.ceil(1.2), math.ceil(-1.2), math.floor(1.8), math.floor(-1.8)}
return tostring(math.ceil(-0.5))
return {tostring(math.floor(1/0)), tostring(math.ceil(0/0))}
return {tostring(math.sqrt(2)), tostring(math.sqrt(-1)), math.sqrt(16)}
return {tostring(math.sin(1)), tostring(math.cos(1)), tostring(math.tan(1))}
return {tostring(math.asin(0.5)), tostring(math.acos(0.5)), tostring(math.atan(1))}
return {tostring(math.asin(2)), tostring(math.acos(-2))}
return {tostring(math.atan2(1, 2)), tostring(math.atan2(-1, -2)), tostring(math.atan2(0, -1)), tostring(math.atan2(1, 0))}
return {tostring(math.exp(1)), tostring(math.exp(710)), tostring(math.exp(-1000))}
return {tostring(math.log(10)), tostring(math.log(0)), tostring(math.log(-1)), tostring(math.log10(1000)), tostring(math.log10(2))}
return {tostring(math.pow(2, 10)), tostring(math.pow(2, 0.5)), tostring(math.pow(-8, 1/3)), tostring(math.pow(0, -1))}
return {tostring(math.fmod(7, 3)), tostring(math.fmod(-7, 3)), tostring(math.fmod(7, -3)), tostring(math.fmod(7, 0)), tostring(math.fmod(5.5, 2))}
return {tostring(math.mod(7, 3)), tostring(math.mod(-7.5, 2))}
return {math.modf(3.7)}
return {tostring(select(1, math.modf(-3.7))), tostring(select(2, math.modf(-3.7)))}
return {tostring(select(1, math.modf(1/0))), tostring(select(2, math.modf(1/0))), tostring(select(2, math.modf(-1/0)))}
return {tostring(select(1, math.modf(0/0))), tostring(select(2, math.modf(0/0)))}
return {tostring(select(1, math.frexp(8))), select(2, math.frexp(8))}
return {tostring(select(1, math.frexp(-3))), select(2, math.frexp(-3))}
return {tostring(select(1, math.frexp(0))), select(2, math.frexp(0))}
return {tostring(select(1, math.frexp(1e-310))), select(2, math.frexp(1e-310))}
return {tostring(select(1, math.frexp(0.1))), select(2, math.frexp(0.1))}
return {tostring(select(1, math.frexp(1/0))), select(2, math.frexp(1/0))}
return {tostring(math.ldexp(0.5, 4)), tostring(math.ldexp(1, 1024)), tostring(math.ldexp(1, -1074)), tostring(math.ldexp(1, -1080)), tostring(math.ldexp(3, 2.7))}
return {tostring(math.ldexp(2^-1070, 2000)), tostring(math.ldexp(2^1000, -2000)), tostring(math.ldexp(1, 2^40))}
return {tostring(math.deg(math.pi)), tostring(math.rad(180)), tostring(math.deg(1)), tostring(math.rad(1))}
return {math.min(3, 1, 2), math.max(3, 1, 2), math.min(5), math.max(-1, '7')}
return {tostring(math.min(1, 0/0)), tostring(math.max(0/0, 1))}
local z = 0 return {tostring(math.min(-z, 0)), tostring(math.min(0, -z)), tostring(math.max(-z, 0))}
return math.min()
return math.max(1, 'x')
return math.max(1, nil)
return {tostring(math.cosh(1)), tostring(math.sinh(1)), tostring(math.tanh(1)), tostring(math.tanh(100))}
return {tostring(math.huge), tostring(-math.huge), tostring(math.pi)}
return math.floor('3.7')
return math.floor('x')
return math.floor()
return math.sin({})
return math.atan2(1)
return math.pow(2)
return math.fmod(1)
return math.ldexp(1)
return math.nope
local r = math.random() return {type(r), r >= 0 and r < 1}
local ok = true for i = 1, 200 do local r = math.random(10) if r < 1 or r > 10 or r ~= math.floor(r) then ok = false end end return ok
local ok = true for i = 1, 200 do local r = math.random(-3, 3) if r < -3 or r > 3 or r ~= math.floor(r) then ok = false end end return ok
return math.random(1)
return math.random(5, 5)
return math.random(0)
return math.random(-1)
return math.random(3, 1)
return math.random(1, 2, 3)
return math.random('x')
return math.random(1, 'x')
math.randomseed(42) return {math.random(1000000), math.random(1000000), math.random(1, 6), tostring(math.random())}
math.randomseed(0) return {math.random(100), math.random(100), math.random(100)}
math.randomseed(-7) return {math.random(100), math.random(100)}
math.randomseed(2^31 + 5) return {math.random(100), math.random(100)}
math.randomseed(1.9) return {math.random(100), math.random(100)}
math.randomseed(123) local a = math.random(1000) math.randomseed(123) return a == math.random(1000)
math.randomseed(7) return {math.random(2^31), math.random(-2^31, 2^31)}
return math.randomseed()
return math.randomseed('x')
return select('#', math.randomseed(1))
return math.random(1.5)
math.randomseed(3) return math.random(0.5)
