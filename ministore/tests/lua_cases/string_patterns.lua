-- string.find / match / gmatch / gsub with Lua 5.1 patterns, compared with real Redis.
return {string.find('hello world', 'wor')}
return {string.find('hello world', 'o', 6)}
return {string.find('hello world', 'o', -3)}
return {string.find('hello', 'l+')}
return {string.find('hello', 'xyz')}
return {string.find('hello', '')}
return {string.find('hello', '', 10)}
return {string.find('hello', '', -10)}
return {string.find('', '')}
return {string.find('a.b', '.', 1, true)}
return {string.find('a.b', '%.')}
return {string.find('a+b', '+', 1, true)}
return {string.find('key=val', '(%w+)=(%w+)')}
return {string.find('hello', '()ll()')}
return {string.find('hello', '^h')}
return {string.find('hello', '^e')}
return {string.find('hello', 'o$')}
return {string.find('a$b', '$b')}
return {string.find('a^b', 'a^')}
return {string.find(12345, 34)}
return {string.find('hello', 'l', 1.9)}
return string.find()
return string.find('x')
return string.find({}, 'x')
return {string.find('abc', 'b', nil)}
return {string.find('abc', 'b', 1, nil)}
return {string.find('a\0b', '\0')}
return {string.find('a\0b', 'b\0')}
return {string.find('a\0b', '%z')}
return {string.find('a.b\0c', '.\0', 1, true)}
return {string.match('hello world', '%a+')}
return {string.match('hello world', '(%a+) (%a+)')}
return {string.match('  trim me  ', '^%s*(.-)%s*$')}
return {string.match('2024-01-15', '(%d+)-(%d+)-(%d+)')}
return {string.match('abc', '()b()')}
return {string.match('abc', 'x')}
return {string.match('hello', '.-l')}
return {string.match('hello', '.*l')}
return {string.match('<a><b>', '<(.-)>')}
return {string.match('color colour', 'colou?r')}
return {string.match('colour', 'colou?r')}
return {string.match('aaa', 'a-')}
return {string.match('aaa', 'a-$')}
return {string.match('hello', 'l', 4)}
return {string.match('hello', 'l', -1)}
return {string.match('f(a(b)c)d', '%b()')}
return {string.match('f(a(b)c d', '%b()')}
return {string.match('[[x]]', '%b[]')}
return {string.match('THE (quick) fox', '%f[%a]%a+')}
return {string.match('THE (quick) fox', '%f[%l]%a+')}
return {string.match('hello', '%f[%a]')}
return {string.match('hello', '%f[%z]')}
return {string.match('say "hi" ok', '(["\'])(.-)%1')}
return {string.match('abab', '(ab)%1')}
return {string.match('x', '((x))')}
return {string.match('abc', '(a)(b)(c)')}
return {string.match('ABCdef123', '%u+')}
return {string.match('ABCdef123', '%l+')}
return {string.match('ABCdef123', '%d+')}
return {string.match('ABCdef123', '%D+')}
return {string.match('a,b;c', '%p')}
return {string.match('a,b;c', '%P+')}
return {string.match('x\ty', '%s')}
return {string.match('x\ty', '%S+')}
return {string.match('ff0Gz', '%x+')}
return {string.match('ff0Gz', '%X+')}
return {string.match('ab_1 2', '%w+')}
return {string.match('ab_1 2', '%W+')}
return {string.match('a\1b', '%c')}
return {string.match('a\127b', '%C+')}
return {string.match('abc-123', '[a-c]+')}
return {string.match('abc-123', '[^a-c]+')}
return {string.match('a]b', '[]]')}
return {string.match('a]b', '[%]]')}
return {string.match('a-b', '[a-]+')}
return {string.match('a-b', '[-a]+')}
return {string.match('a^b', '[%^]')}
return {string.match('a^b', '[b^]+')}
return {string.match('x5y', '[%d]')}
return {string.match('x5y', '[^%d]+')}
return {string.match('x5y', '[%a%d]+')}
return {string.match('zz', '[z-a]')}
return {string.match('hello', '.')}
return {string.match('', '.')}
return {string.match('', '')}
return {string.match('', '()')}
return {string.match('abc', '^(a)')}
return {string.match('abc', 'c$')}
return {string.match('a.b', 'a.b')}
return {string.match('a+', 'a%+')}
return {string.match('%', '%%')}
return {string.match('abc', '%')}
return {string.match('abc', '[a')}
return {string.match('abc', '[a%')}
return {string.match('abc', '[')}
return {string.match('abc', '[^')}
return {string.match('abc', '%f')}
return {string.match('abc', '%fx')}
return {string.match('abc', '%1')}
return {string.match('abc', '(a)%2')}
return {string.match('abc', '(a%1)')}
return {string.match('abc', 'a)')}
return {string.match('abc', '(a')}
return {string.match('abc', '%b')}
return {string.match('abc', '%ba')}
return {string.match('abc', '%0')}
return {string.match(string.rep('a', 40), string.rep('(a)', 33))}
return {string.match(string.rep('a', 40), string.rep('(a)', 32))}
return {string.match('aaa', 'a*a*a*b')}
return {string.match('hello world from lua', '(%w+) (%w+) (%w+) (%w+)')}
return {string.match('key = value', '(%w+)%s*=%s*(%w+)')}
return {string.match('/usr/local/bin', '^(.*)/([^/]*)$')}
return {string.match('abc', '()')}
return {string.match('abc', '()', 4)}
return {string.match('abc', '()', 10)}
return {string.match('x=1, y=2', 'y=(%d)')}
return {string.match(3.5, '%d')}
return {string.match('a\0b', 'a%zb')}
return {string.match('a\0b', '[%z]')}
local t = {} for w in string.gmatch('one two three', '%a+') do t[#t+1] = w end return t
local t = {} for k, v in string.gmatch('a=1, b=2, c=3', '(%w+)=(%w+)') do t[#t+1] = k .. ':' .. v end return t
local t = {} for w in string.gmatch('abc', '') do t[#t+1] = 'x' end return #t
local t = {} for p in string.gmatch('abc', '()') do t[#t+1] = p end return t
local t = {} for w in string.gmatch('^a^b', '^.') do t[#t+1] = w end return t
local t = {} for w in string.gmatch('hello', '.-') do t[#t+1] = '[' .. w .. ']' end return t
local t = {} for w in string.gmatch('x1y22z333', '%d+') do t[#t+1] = w end return t
local t = {} for a, b in string.gmatch('k1v1k2v2', 'k(%d)v(%d)') do t[#t+1] = a + b end return t
local it = string.gmatch('a b', '%a') return {it(), it(), it()}
return type(string.gmatch('a', 'a'))
local t = {} for w in string.gfind('one two', '%a+') do t[#t+1] = w end return t
local t = {} for w in ('a,b,,c'):gmatch('([^,]*)') do t[#t+1] = '<' .. w .. '>' end return t
return string.gmatch()
return string.gmatch('x')
local ok, e = pcall(function() for w in string.gmatch('abc', '%') do end end) return e
return {string.gsub('hello world', 'o', '0')}
return {string.gsub('hello world', 'o', '0', 1)}
return {string.gsub('hello world', 'o', '0', 0)}
return {string.gsub('hello world', 'o', '0', -1)}
return {string.gsub('hello', '', '-')}
return {string.gsub('', '', '-')}
return {string.gsub('hello', 'l*', 'L')}
return {string.gsub('hello world', '(%w+)', '<%1>')}
return {string.gsub('hello world', '%w+', '%0 %0')}
return {string.gsub('hello', '(l)(l)', '%2%1')}
return {string.gsub('abc', '%w', '%%')}
return {string.gsub('abc', '%w', '%x')}
return {string.gsub('abc', '%w', '%2')}
return {string.gsub('abc', '(%w)', '%2')}
return {string.gsub('abc', 'b', '%')}
return {string.gsub('abc', '()b', '%1')}
return {string.gsub('hello', 'l', {l = 'L'})}
return {string.gsub('hello', '%w', {h = 'H', o = 0})}
return {string.gsub('hello', '%w', {h = true})}
return {string.gsub('hello', '%w', {h = false})}
return {string.gsub('hello', '%w', {h = {}})}
return {string.gsub('$name is $age', '%$(%w+)', {name = 'bob', age = 42})}
return {string.gsub('hello', '(h)(e)', {h = 'X'})}
return {string.gsub('hello', '()e', {[2] = 'E'})}
return {string.gsub('hello', '%w', function(c) return c:upper() end)}
return {string.gsub('hello', '%w', function(c) if c == 'l' then return nil end return '.' end)}
return {string.gsub('hello', '%w', function(c) return false end)}
return {string.gsub('hello', '%w', function(c) return 1.5 end)}
return {string.gsub('hello', '%w', function(c) return {} end)}
return {string.gsub('hello', '%w', function(c) return true end)}
return {string.gsub('k1=v1', '(%w+)=(%w+)', function(k, v) return v .. '=' .. k end)}
return {string.gsub('abc', '', function() return '-' end)}
return {string.gsub('hello', 'l', function() error('inside') end)}
return {string.gsub('abc', 'b', 5)}
return {string.gsub(123, 2, 9)}
return string.gsub('abc', 'b')
return string.gsub('abc', 'b', true)
return string.gsub('abc', 'b', nil)
return string.gsub('abc', 'b', 'x', 'y')
return {string.gsub('abc', '^a', 'X')}
return {string.gsub('abc', '^b', 'X')}
return {string.gsub('aaa', '^a', 'X')}
return {string.gsub('abc', 'c$', 'X')}
return {string.gsub('a b  c', '%s+', ' ')}
return {string.gsub('  x  ', '^%s+', '')}
return {string.gsub('hello', '[aeiou]', string.upper)}
return {string.gsub('abc', '.', {a = 1, b = 2})}
return {string.gsub('abc', '%', 'x')}
return {string.gsub('abc', '(', 'x')}
return {string.gsub('one two', '(%w+) (%w+)', '%2 %1')}
return {string.gsub('x', 'x', '%%1')}
return {string.gsub('hello world', 'o', '0', 1.9)}
return {('abc'):gsub('b', 'B')}
return {('x'):rep(3):gsub('x', 'y')}
return {string.gsub('a\0b', '%z', '0')}
return {string.gsub('abc', 'b\0x', 'X')}
