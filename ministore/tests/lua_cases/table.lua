-- table.* as Lua 5.1 has it: insert/remove/concat edge cases, sort, maxn, getn, setn, foreach.
local t = {} table.insert(t, 'a') table.insert(t, 'b') return t
local t = {'a', 'b'} table.insert(t, 1, 'x') return t
local t = {'a', 'b'} table.insert(t, 3, 'x') return t
local t = {'a', 'b'} table.insert(t, 2, 'x') return t
local t = {'a', 'b'} table.insert(t, 5, 'x') return {t[1], t[2], t[3], t[4], t[5], #t}
local t = {'a', 'b'} table.insert(t, 0, 'x') return {t[0], t[1], t[2], t[3], #t}
local t = {'a', 'b'} table.insert(t, -1, 'x') return {t[-1], t[0], t[1], t[2], t[3], #t}
local t = {'a'} table.insert(t, 1.9, 'x') return t
local t = {'a'} table.insert(t, '1', 'x') return t
local t = {} table.insert(t, 'x', 'y') return t
local t = {} table.insert(t) return t
local t = {} table.insert(t, 1, 2, 3) return t
table.insert(nil, 1)
table.insert('x', 1)
table.insert()
local t = {'a'} table.insert(t, nil) return #t
local t = {'a', 'b', 'c'} local r = table.remove(t) return {r, #t}
local t = {'a', 'b', 'c'} local r = table.remove(t, 1) return {r, t[1], t[2], #t}
local t = {'a', 'b', 'c'} local r = table.remove(t, 2) return {r, t[1], t[2], #t}
local t = {'a', 'b', 'c'} return {table.remove(t, 4), #t}
local t = {'a', 'b', 'c'} return {table.remove(t, 0), #t}
local t = {'a', 'b', 'c'} return {table.remove(t, -1), #t}
local t = {} return {table.remove(t), #t}
local t = {} return table.remove(t, 'x')
local t = {'a'} return table.remove(t, 'x')
return table.remove()
return table.remove(5)
local t = {'a', 'b'} return select('#', table.remove(t, 3))
return table.concat({1, 2, 3})
return table.concat({1, 2, 3}, ', ')
return table.concat({1, 2, 3}, ', ', 2)
return table.concat({1, 2, 3}, ', ', 2, 3)
return table.concat({1, 2, 3}, ', ', 3, 2)
return table.concat({1, 2, 3}, ', ', 1, 5)
return table.concat({1, 2, 3}, ', ', 0)
return table.concat({'a', 2.5, 'c'}, 1)
return table.concat({1, {}, 3})
return table.concat({1, true, 3})
return table.concat({}, 'x')
return table.concat({}, {})
return table.concat('x')
return table.concat({1, 2}, nil, nil, nil)
return table.concat({1, 2}, ',', '1', '2')
return table.concat({1, 2}, ',', 'a')
return table.concat()
return table.concat({[1] = 'a', [3] = 'c'}, ',', 1, 3)
local t = {5, 2, 8, 1, 9, 3} table.sort(t) return t
local t = {'pear', 'apple', 'fig', 'banana'} table.sort(t) return t
local t = {5, 2, 8, 1, 9, 3} table.sort(t, function(a, b) return a > b end) return t
local t = {} table.sort(t) return t
local t = {1} table.sort(t) return t
local t = {2, 1} table.sort(t) return t
local t = {3, 1, 2} table.sort(t) return t
local t = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10} table.sort(t, function(a, b) return a > b end) return t
local t = {} for i = 1, 100 do t[i] = (i * 37) % 101 end table.sort(t) return t
local t = {} for i = 1, 200 do t[i] = (i * 7919) % 1009 end table.sort(t, function(a, b) return a > b end) return t
local t = {} for i = 1, 50 do t[i] = i % 5 end table.sort(t) return t
local t = {} for i = 1, 30 do t[i] = {k = i % 4, id = i} end table.sort(t, function(a, b) return a.k < b.k end) local r = {} for i, v in ipairs(t) do r[i] = v.id end return r
local t = {3, 1, 2} table.sort(t, function(a, b) return true end) return t
local t = {5, 3, 1, 4, 2} table.sort(t, function(a, b) return true end) return t
local t = {} for i = 1, 20 do t[i] = i end table.sort(t, function(a, b) return true end) return t
local t = {} for i = 1, 20 do t[i] = 21 - i end local ok, e = pcall(table.sort, t, function(a, b) return a <= b end) return {tostring(ok), e}
local t = {} for i = 1, 20 do t[i] = i % 3 end local ok, e = pcall(table.sort, t, function(a, b) return a <= b end) return {tostring(ok), e}
local t = {3, 1, 2} table.sort(t, function(a, b) return false end) return t
local n = 0 local t = {} for i = 1, 40 do t[i] = (i * 13) % 41 end table.sort(t, function(a, b) n = n + 1 return a < b end) return n
local t = {} for i = 1, 12 do t[i] = (i * 5) % 13 end local seen = {} table.sort(t, function(a, b) seen[#seen + 1] = a .. '<' .. b return a < b end) return seen
local t = {3, 1, 'x'} table.sort(t)
local t = {3, 1, {}} table.sort(t)
local t = {{}, {}} table.sort(t)
local t = {true, false} table.sort(t)
local t = {3, 1, 2} table.sort(t, function(a, b) error('cmp fail') end)
local t = {3, 1, 2} table.sort(t, function(a, b) return a.x < b.x end)
local t = {3, 1, 2} table.sort(t, 5)
local t = {3, 1, 2} table.sort(t, {})
table.sort()
table.sort('abc')
local t = {3, 1, 2} table.sort(t, nil) return t
local t = {'b', 'a', 'B', 'A', '', 'ab', 'a\0'} table.sort(t) return t
local t = {3, 1, nil, 2} table.sort(t) return t
return table.maxn({1, 2, 3})
return table.maxn({})
return table.maxn({[10] = 1, [2.5] = 2, x = 3})
return tostring(table.maxn({[-5] = 1}))
return tostring(table.maxn({[1.5] = 1}))
return table.maxn()
return table.maxn('x')
return table.getn({1, 2, 3})
return table.getn({})
return table.getn({1, 2, nil, 4})
return table.getn()
return table.getn('x')
table.setn({}, 1)
table.setn('x', 1)
table.setn()
local r = {} table.foreach({10, 20, 30}, function(k, v) r[#r + 1] = k .. '=' .. v end) return r
return table.foreach({10, 20, 30}, function(k, v) if v == 20 then return k end end)
return table.foreach({10, 20, 30}, function(k, v) return false end)
return {table.foreach({a = 1}, function(k, v) return k, v end)}
local r = {} table.foreachi({10, 20, 30, x = 1}, function(i, v) r[#r + 1] = i * v end) return r
return table.foreachi({10, 20, 30}, function(i, v) if i == 2 then return v end end)
return table.foreachi({}, function() return 1 end)
table.foreach({1}, 5)
table.foreachi({1})
table.foreach()
table.foreachi('x', print)
local t = {1, 2, 3} local n = 0 table.foreachi(t, function(i, v) t[#t + 1] = v n = n + 1 end) return n
return type(table.sort) .. type(table.maxn) .. type(table.foreach)
return table.nope
return unpack({1, 2, 3}, 2)
return unpack({1, 2, 3}, -1, 1)
return {unpack({1, 2, 3}, 2, 5)}
return unpack({}, 1, 0)
return unpack()
