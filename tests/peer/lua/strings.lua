-- tests/peer/lua/strings.lua: string library (find, gsub, patterns, rep, byte/char, format)
local s = "The quick brown fox jumps over the lazy dog"
print(#s, s:upper(), s:lower())
print(s:find("fox"), s:find("o", 20, true), s:match("(%a+) dog"))
print((s:gsub("o", "0")), select(2, s:gsub("%s", "_")))
for w in s:gmatch("%a+") do io.write(w:sub(1, 2), ",") end
print()
print(("ab"):rep(5, "-"), s:reverse(), s:byte(1, 5))
print(string.char(72, 105, 33), ("%d items"):format(42))
print(("x=%5d|%-5s|%05.1f|%x|%X|%o|%e|%g|%q"):format(42, "ab", 3.14159, 255, 255, 8, 12345.678, 0.0001, "a\nb\"c"))
print(("%10.3s|%c|%%|%i"):format("abcdef", 65, -7))
print(tostring(1/0), tostring(-1/0), tostring(0/0) ~= nil, math.type(1), math.type(1.0), math.type("1"))
print(("key=val; k2=v2"):gsub("(%w+)=(%w+)", "%2=%1"))
print(string.format("%s %s %s", nil, true, 12.5), tostring(2^53), 10 // 3, 10.0 // 3, 7 % -3, -7 % 3)
local t = {}
for i = 1, 10 do t[#t + 1] = string.format("%02d", i * 7 % 13) end
print(table.concat(t, ":"))
print(("  trim me  "):match("^%s*(.-)%s*$") .. "|", ("a,b,,c"):find(",,"))
print(utf8.char(72, 228, 8364, 128512), utf8.len("häll€"), #utf8.char(128512))
for p, c in utf8.codes("aé€") do io.write(p, ":", c, " ") end
print()
print(string.pack and #string.pack("i4i8d", 1, 2, 3.0), string.unpack("<i2", "\1\2"))
print(tonumber("0x1F"), tonumber("  12  "), tonumber("1e3"), tonumber("z", 36), tonumber("abc"), math.tointeger(3.0))
