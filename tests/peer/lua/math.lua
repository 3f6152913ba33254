-- tests/peer/lua/math.lua: integer and float arithmetic, math library, conversions
print(math.pi, math.huge, -math.huge, math.maxinteger, math.mininteger)
print(math.maxinteger + 1 == math.mininteger, math.mininteger // -1, 7 // 2, -7 // 2, 7.5 // 2, 2 ^ 10, 7 % 0.5)
print(math.floor(3.7), math.ceil(3.2), math.floor(-3.5), math.abs(-4), math.max(1, 9, 3), math.min(4, -2, 8))
print(math.sqrt(2), math.sin(1), math.cos(1), math.tan(0.5), math.exp(1), math.log(10), math.log(8, 2), math.log(100, 10))
print(math.fmod(7, 3), math.fmod(-7, 3), math.modf(3.75), math.modf(-2.5), math.ult(1, -1))
print(string.format("%.17g %.17g %.17g", 0.1 + 0.2, 1 / 3, 2 / 3 * 3))
print(3 & 5, 3 | 5, 3 ~ 5, ~0, 1 << 62, 1 << 63, 1 << 64, -1 >> 1, 0xff >> 4)
print(10 / 4, 10 // 4, 2 ^ 0.5, 1e308 * 10, -0.0, 0.0 == -0.0, 100000000000000)
print(math.tointeger(2 ^ 31), 2 ^ 63, math.tointeger(2 ^ 63), 9007199254740993, 1e15, 1e16, 123456789012 * 1000)
print(string.format("%.3f %.0f %5.1e %g %g %g", 2.0005, 2.5, 123456, 1e20, 1e-5, 100))
print(8 // 0.0, -8 // 0.0, pcall(function() return 1 // 0 end))
print(tostring(3) == "3", tostring(3.0), 3 == 3.0, math.type(3 // 1), math.type(3 / 1), 1e100)
math.randomseed(42)
local r = {}
for i = 1, 5 do r[i] = math.random(1, 100) end
local r2 = {}
math.randomseed(42)
for i = 1, 5 do r2[i] = math.random(1, 100) end
print(table.concat(r, ",") == table.concat(r2, ","))
local acc = 0
for i = 1, 100000 do acc = (acc * 31 + i) % 1000000007 end
print(acc)
local f = 0.0
for i = 1, 1000 do f = f + 1 / i end
print(string.format("%.12f", f))
