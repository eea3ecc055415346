-- tonumber and tostring exactly as Lua 5.1 has them, and other base functions.
return {tonumber('10'), tonumber('  12  '), tonumber('0x1F'), tonumber('1e3'), tonumber('-2.5')}
return {tostring(tonumber('')), tostring(tonumber(' ')), tostring(tonumber('abc')), tostring(tonumber('12a'))}
return {tonumber('ff', 16), tonumber('FF', 16), tonumber('777', 8), tonumber('1010', 2), tonumber('zz', 36)}
return {tonumber('  ff  ', 16), tostring(tonumber('ff', 10)), tostring(tonumber('8', 8)), tostring(tonumber('2', 2))}
return {tonumber('0x1f', 16), tostring(tonumber('0x', 16)), tostring(tonumber('0xg', 16)), tonumber('0X1F', 16)}
return {tonumber('-ff', 16), tonumber('+ff', 16), tonumber('-1', 10)}
return tostring(tonumber('-1', 16))
return tostring(tonumber('ffffffffffffffffffff', 16))
return tostring(tonumber('ffffffffffffffff', 16))
return {tonumber(10, 16), tonumber(11, 2), tostring(tonumber(12.5, 16))}
return tonumber('10', 1)
return tonumber('10', 37)
return tonumber('10', 0)
return tonumber('10', 'x')
return tonumber({}, 16)
return tonumber(nil, 16)
return tonumber()
return tostring(tonumber(nil))
return tostring(tonumber({}))
return tostring(tonumber(true))
return tonumber('10', 10.7)
return tonumber('10', '16')
return tostring(tonumber('1 0', 16))
return tostring(tonumber('1\0zz', 16))
return tostring(tonumber('', 16))
return tostring(tonumber('-', 16))
return tostring(tonumber('z', 35))
return tonumber('Z', 36)
return {tonumber('0x10'), tonumber('0X10'), tostring(tonumber('0x')), tostring(tonumber('1e')), tonumber('.5'), tonumber('5.')}
return {tostring(tonumber('inf')), tostring(tonumber('nan')), tostring(tonumber('1e400')), tostring(tonumber('-0'))}
return {tonumber('\t10\n'), tostring(tonumber('10\0'))}
return {tostring(12), tostring(12.5), tostring(-0.0), tostring(1e15), tostring(1e16), tostring(0.1)}
return {tostring(1e21), tostring(1e-5), tostring(123456789012345678), tostring(2^-1074), tostring(1/3), tostring(2.5), tostring(-1e300), tostring(99999999999999.5), tostring(1e14 - 0.5)}
return {tostring(true), tostring(nil), tostring('x'), type(tostring({})), type(tostring(print))}
return tostring()
return tostring(nil, 1)
return string.sub(tostring(tostring), 1, 9)
return string.sub(tostring({}), 1, 6)
return tostring(2^63)
return tostring(-2^63)
return tostring(123456789012)
return tostring(1/3)
return {type(1), type('1'), type(nil), type(true), type({}), type(type), type(string)}
return type()
return select(-1, 'a', 'b')
return select(-3, 'a', 'b')
return select(0, 'a')
return select('x', 'a')
return select(5, 'a')
return rawget({5}, 1)
return rawget('x', 1)
local t = {} rawset(t, 'a', 1) return t.a
return rawset({}, nil, 1)
return rawequal({}, {})
return rawequal(1)
return next({}, 'nokey')
local t = {a = 1} return next(t)
return {pcall(tonumber)}
return {pcall(tostring, 12)}
return {pcall(string.rep)}
return {pcall(string.sub, 'x', {})}
return {pcall(math.floor, 'x')}
return {pcall(table.insert, {}, 1, 2, 3)}
return {pcall(error)}
return {pcall(assert, false, 'm')}
return {pcall(assert, false)}
return {pcall(rawset, {}, nil, 1)}
local t = {3, 1, 2} table.sort(t, math.max) return t
return {string.gsub('abc', '%w', string.byte)}
return {'10\0' + 1, tonumber('7\0x')}
