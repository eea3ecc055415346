-- cmsgpack (lua-cmsgpack 0.4.0 as Redis ships it): type choices, round trips, offsets, errors.
return cmsgpack.pack(1)
return cmsgpack.pack(0, 127, 128, 255, 256, 65535, 65536, 4294967295, 4294967296)
return cmsgpack.pack(-1, -32, -33, -128, -129, -32768, -32769, -2147483648, -2147483649)
return cmsgpack.pack(2^53, -2^53, 2^63, -2^63, 2^64)
return cmsgpack.pack(0.5, 0.1, -2.25, 1e300, 1/0, -1/0)
return #cmsgpack.pack(0/0)
return cmsgpack.pack('')
return cmsgpack.pack('abc')
return cmsgpack.pack(string.rep('x', 31)) == '\191' .. string.rep('x', 31)
return #cmsgpack.pack(string.rep('x', 32))
return #cmsgpack.pack(string.rep('x', 255))
return #cmsgpack.pack(string.rep('x', 256))
return #cmsgpack.pack(string.rep('x', 65536))
return cmsgpack.pack(true, false, nil)
return cmsgpack.pack({})
return cmsgpack.pack({1, 2, 3})
return cmsgpack.pack({a = 1})
return cmsgpack.pack({[1] = 'a', [3] = 'c'})
return cmsgpack.pack({[2] = 'b'})
return cmsgpack.pack({[1.5] = 'x'})
return cmsgpack.pack({{{}}})
return #cmsgpack.pack((function() local t = {} for i = 1, 16 do t[i] = i end return t end)())
return #cmsgpack.pack((function() local t = {} for i = 1, 70000 do t[i] = 1 end return t end)())
return #cmsgpack.pack((function() local t = {} for i = 1, 20 do t['k' .. i] = i end return t end)())
local t = {} t[1] = t return cmsgpack.pack(t)
local t = {} for i = 1, 20 do t = {t} end return cmsgpack.pack(t)
return cmsgpack.pack(cmsgpack.pack)
return cmsgpack.pack(cjson.null)
return cmsgpack.pack()
return cmsgpack.pack(1, 'a', {2})
return {cmsgpack.unpack(cmsgpack.pack(1, -1, 300, -300, 70000, -70000, 2^40, -2^40))}
return {cmsgpack.unpack(cmsgpack.pack('a', '', string.rep('y', 40), true, false))}
return {cmsgpack.unpack(cmsgpack.pack(0.5, -2.25))}
return tostring(cmsgpack.unpack(cmsgpack.pack(0.1)))
return tostring(cmsgpack.unpack(cmsgpack.pack(1/0)))
return cmsgpack.unpack(cmsgpack.pack({1, 2, {3, 'x'}}))
return cmsgpack.unpack(cmsgpack.pack({a = {b = 'c'}})).a.b
return select('#', cmsgpack.unpack(cmsgpack.pack(nil, nil)))
return {cmsgpack.unpack('')}
return cmsgpack.unpack()
return cmsgpack.unpack({})
return cmsgpack.unpack(5)
return cmsgpack.unpack('\193')
return cmsgpack.unpack('\196\1a')
return cmsgpack.unpack('\212\1\1')
return cmsgpack.unpack('\205\1')
return cmsgpack.unpack('\217')
return cmsgpack.unpack('\217\5ab')
return cmsgpack.unpack('\163ab')
return cmsgpack.unpack('\146\1')
return cmsgpack.unpack('\129\1')
return cmsgpack.unpack('\129\192\1')
return cmsgpack.unpack('\129\203\127\248\0\0\0\0\0\0\1')
return cmsgpack.unpack('\129\1\192')
return cmsgpack.unpack('\220\0\2\1\2')
return cmsgpack.unpack('\222\0\1\161a\1').a
return cmsgpack.unpack('\221\0\0\0\1\7')
return cmsgpack.unpack('\223\0\0\0\1\161k\161v').k
return cmsgpack.unpack('\219\0\0\0\3abc')
return cmsgpack.unpack('\218\0\3abc')
return cmsgpack.unpack('\221\255\255\255\255')
return {cmsgpack.unpack('\207\0\0\0\0\0\0\1\0', '\211\255\255\255\255\255\255\255\255')}
return {cmsgpack.unpack('\204\200\208\200\205\1\0\209\255\0\206\0\1\0\0\210\255\255\0\0')}
return tostring(cmsgpack.unpack('\202\63\192\0\0'))
return {cmsgpack.unpack('\1\2\3')}
return {cmsgpack.unpack_one('\1\2\3')}
return {cmsgpack.unpack_one('\1\2\3', 0)}
return {cmsgpack.unpack_one('\1\2\3', 1)}
return {cmsgpack.unpack_one('\1\2\3', 2)}
return {cmsgpack.unpack_one('\1\2\3', 3)}
return {cmsgpack.unpack_one('\1\2\3', 4)}
return {cmsgpack.unpack_one('\1\2\3', -1)}
return {cmsgpack.unpack_one('', 0)}
return {cmsgpack.unpack_one('\205\1', 0)}
return {cmsgpack.unpack_limit('\1\2\3', 2)}
return {cmsgpack.unpack_limit('\1\2\3', 2, 1)}
return {cmsgpack.unpack_limit('\1\2\3', 5)}
return {cmsgpack.unpack_limit('\1\2\3', 0, 0)}
return {cmsgpack.unpack_limit('\1\2\3', 0, 1)}
return {cmsgpack.unpack_limit('\1\2\3', -1)}
return cmsgpack.unpack_limit('\1')
return cmsgpack.unpack_limit('\1', 'x')
return cmsgpack.unpack_one('\1', 'x')
return {cmsgpack._NAME, cmsgpack._VERSION, cmsgpack._COPYRIGHT, cmsgpack._DESCRIPTION}
local t = {} for k in pairs(cmsgpack) do t[#t + 1] = k end table.sort(t) return t
return cmsgpack.nope
local p = cmsgpack.pack({job = 'x'}, 5) local a, b = cmsgpack.unpack(p) return {a.job, b}
