-- struct (0.2 as Redis ships it): pack, unpack, size, format letters, alignment, errors.
return struct.pack('i', 1)
return struct.pack('>i', 1)
return struct.pack('<i', -2)
return struct.pack('bBhHlLT', -1, 255, -2, 65535, -3, 7, 9)
return struct.pack('>bBhHlLT', -1, 255, -2, 65535, -3, 7, 9)
return struct.pack('i1i2i3i5i8', 1, 2, 3, 4, 5)
return struct.pack('i16', -1)
return struct.pack('I16', 2^64)
return struct.pack('B', 256)
return struct.pack('b', 200)
return struct.pack('I', -1)
return struct.pack('i', 2^40)
return struct.pack('i', 1.9)
return struct.pack('i', -1.9)
return struct.pack('I8', 2^63)
return struct.pack('I8', 2^64)
return struct.pack('i8', 0/0)
return struct.pack('i', '12')
return struct.pack('f', 1.5)
return struct.pack('>f', 1.5)
return struct.pack('d', 0.1)
return struct.pack('>d', -2)
return struct.pack('s', 'abc')
return struct.pack('c', 'abc')
return struct.pack('c3', 'abc')
return struct.pack('c0', 'abcdef')
return struct.pack('c5', 'ab')
return struct.pack('s c2', 'ab', 'xy')
return struct.pack('xxbx', 1)
return struct.pack('!4 b i', 1, 2)
return struct.pack('! b d', 1, 2)
return struct.pack('!2 b i', 1, 2)
return struct.pack('!3 i', 1)
return struct.pack('!16 b d', 1, 2)
return struct.pack(' i ', 1)
return struct.pack('i33', 1)
return struct.pack('i99999999999', 1)
return struct.pack('=i', 1)
return struct.pack('z')
return struct.pack('i')
return struct.pack('i', 'x')
return struct.pack('s', {})
return struct.pack()
return struct.pack('')
return struct.pack('i\0z', 1)
return {struct.unpack('i', struct.pack('i', 42))}
return {struct.unpack('>i', struct.pack('>i', -42))}
return {struct.unpack('bBhHlLT', struct.pack('bBhHlLT', -1, 255, -2, 65535, -3, 7, 9))}
return {struct.unpack('i16', string.rep('\255', 16))}
return {struct.unpack('<i9', '\1\0\0\0\0\0\0\0\1')}
return {struct.unpack('>I9', '\1\0\0\0\0\0\0\0\1')}
return {struct.unpack('I3', '\255\255\255')}
return {struct.unpack('i3', '\255\255\255')}
return {struct.unpack('>i2', '\128\0')}
return {struct.unpack('f', struct.pack('f', 1.5))}
return {tostring(struct.unpack('d', struct.pack('d', 0.1)))}
return {struct.unpack('>d', struct.pack('>d', -2.5))}
return {struct.unpack('s', 'abc\0def')}
return {struct.unpack('s', 'abc')}
return {struct.unpack('c3', 'abcdef')}
return {struct.unpack('c', 'abc')}
return {struct.unpack('b c0', '\3abcdef')}
return {struct.unpack('c0', 'abc')}
return {struct.unpack('s c0', 'x\0abc')}
return {struct.unpack('b c0', '\9ab')}
return {struct.unpack('xxb', '\1\2\3')}
return {struct.unpack('!4 b i', '\1\0\0\0\2\0\0\0')}
return {struct.unpack('!4 b i', '\1')}
return {struct.unpack('i', '\1\2')}
return {struct.unpack('b', '\1\2\3', 2)}
return {struct.unpack('b', '\1\2\3', 3)}
return {struct.unpack('b', '\1\2\3', 4)}
return {struct.unpack('b', '\1\2\3', 5)}
return {struct.unpack('b', '\1\2\3', 0)}
return {struct.unpack('b', '\1\2\3', -1)}
return {struct.unpack('', 'abc')}
return {struct.unpack('z', 'abc')}
return {struct.unpack('bb')}
return struct.unpack()
return struct.size('i')
return struct.size('bhilTfd')
return struct.size('!bhilTfd')
return struct.size('!4 b d')
return struct.size('c10 x')
return struct.size('i3i5')
return struct.size('s')
return struct.size('c0')
return struct.size('z')
return struct.size('=')
return struct.size('!3')
return struct.size('')
return struct.size()
local t = {} for k in pairs(struct) do t[#t + 1] = k end table.sort(t) return t
return struct.nope
return {struct.unpack('b', '\1\2\3', 0.5)}
return {struct.unpack('b', '\1\2\3', 2^63)}
return {struct.unpack('x', '\1\2\3', 4)}
return {struct.unpack('', '\1\2\3', 5)}
return {struct.unpack('', '\1\2\3', -1)}
return {struct.unpack('b', '\1\2\3', -4)}
return struct.pack('i i', 1)
return struct.pack('s')
return struct.pack('ii')
