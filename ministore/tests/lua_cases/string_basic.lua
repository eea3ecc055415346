-- string.sub, byte, char, rep, len, lower, upper, reverse as Lua 5.1 has them.
return string.sub('hello', 2, 4)
return string.sub('hello', -3, -2)
return string.sub('hello', 0)
return string.sub('hello', -100, 2)
return string.sub('hello', 3, 100)
return string.sub('hello', 4, 2)
return string.sub('hello', 2.9)
return string.sub('hello', '2', '3')
return string.sub(12345, 2, 3)
return string.sub('hello', 'x')
return string.sub()
return string.sub('hello', nil)
return string.sub('hello', 2, nil)
return string.sub('', 1, 1)
return {string.byte('ABC')}
return {string.byte('ABC', 2)}
return {string.byte('ABC', 1, -1)}
return {string.byte('ABC', -1)}
return {string.byte('ABC', -10)}
return {string.byte('ABC', -10, 2)}
return {string.byte('ABC', 0)}
return {string.byte('ABC', 4)}
return {string.byte('ABC', 2, 1)}
return {string.byte('')}
return {string.byte('\0\255')}
return string.byte()
return string.byte('a', 'x')
return string.char()
return string.char(104, 105)
return string.char(0, 255)
return string.char(256)
return string.char(-1)
return string.char(65.7)
return string.char('65')
return string.char('x')
return string.char(2^32 + 65)
return string.rep('ab', 3)
return string.rep('ab', 0)
return string.rep('ab', -1)
return string.rep('', 100)
return string.rep('x', 2.7)
return string.rep('ab', 3, ',')
return string.rep()
return string.rep('x')
return string.rep(5, 3)
return string.len('hello') .. string.len('') .. string.len('a\0b')
return string.len()
return string.len(123)
return string.lower('HeLLo 123 ÀB')
return string.upper('HeLLo 123 àb')
return string.upper()
return string.reverse('hello')
return string.reverse('')
return string.reverse(123)
return string.reverse()
return ('x'):rep(3)
return ('abc'):len()
return ('abc'):byte(2)
return #('abc'):upper()
return string.dump(string.len)
return string.nope
return type(string.gfind)
return string.sub('hello', 2^53)
return string.sub('hello', -2^53)
return string.sub('hello', 1/0)
return string.sub('hello', 0/0)
