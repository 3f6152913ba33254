-- tests/peer/lua/tables.lua: tables (array/hash parts, sort, insert/remove, metatables, next)
local t = {}
for i = 1, 1000 do t[i] = (i * 7919) % 1009 end
table.sort(t)
print(#t, t[1], t[500], t[1000])
table.sort(t, function(a, b) return a > b end)
print(t[1], t[2], t[1000])
table.insert(t, 1, -1); table.insert(t, 99)
print(#t, t[1], t[#t], table.remove(t), table.remove(t, 1), #t)
local h = {}
for i = 1, 200 do h["k" .. i] = i * i end
local keys = {}
for k in pairs(h) do keys[#keys + 1] = k end
table.sort(keys)
print(#keys, keys[1], keys[200], h.k17, h["k200"])
local sum = 0
for _, v in ipairs({ 5, 4, 3, 2, 1 }) do sum = sum + v end
print(sum, select("#", 1, nil, 3), table.unpack({ 1, 2, 3 }))
local V = {}
V.__index = V
V.__add = function(a, b) return setmetatable({ x = a.x + b.x, y = a.y + b.y }, V) end
V.__tostring = function(v) return "(" .. v.x .. "," .. v.y .. ")" end
V.__eq = function(a, b) return a.x == b.x and a.y == b.y end
V.__lt = function(a, b) return a.x < b.x end
V.__len = function() return 2 end
V.__call = function(self, k) return self.x * k end
function V.new(x, y) return setmetatable({ x = x, y = y }, V) end
function V:dot(o) return self.x * o.x + self.y * o.y end
local a, b = V.new(1, 2), V.new(3, 4)
print(tostring(a + b), a:dot(b), a == V.new(1, 2), a < b, #a, a(10))
local proxy = setmetatable({}, { __index = function(_, k) return k .. "!" end, __newindex = function(t2, k, v) rawset(t2, k, v * 2) end })
proxy.z = 21
print(proxy.foo, proxy.z, rawget(proxy, "foo"))
local m = table.move({ 1, 2, 3, 4, 5 }, 2, 4, 1)
print(table.concat(m, ","), next({}), type(next({ 7 })))
local deep = {}
local cur = deep
for i = 1, 100 do cur.child = { depth = i }; cur = cur.child end
local n = 0
cur = deep
while cur.child do n = n + cur.child.depth; cur = cur.child end
print(n)
local weak = setmetatable({}, { __mode = "k" })
weak[{}] = 1
collectgarbage(); collectgarbage()
local cnt = 0
for _ in pairs(weak) do cnt = cnt + 1 end
print("weak entries after gc", cnt)
