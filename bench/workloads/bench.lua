-- bench/workloads/bench.lua — a CPU-bound Lua workload for bench/run.sh: table
-- operations, string building, closures, numeric loops, sorting and a little
-- recursion. Deterministic (own LCG, no clock, no math.random); prints one
-- checksum line per part so that a miscompiled interpreter shows as a diff.
-- usage: lua bench.lua [SCALE]   (SCALE 1 is about 0.03 s under gcc -O2)

local scale = tonumber(arg and arg[1]) or 64

local seed = 12345
local function rand(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n
end

-- numeric loops: integer mixing and floating point sums
local function numeric(n)
  local acc, x = 0, 0.0
  for i = 1, n do
    acc = (acc * 31 + i) & 0xffffffff
    x = x + (i % 7) * 0.5 - (i % 3) * 0.25
  end
  return string.format("numeric %d %.3f", acc, x)
end

-- tables: array fill, hash insert/lookup/delete, table.insert/remove
local function tables(n)
  local arr, hash = {}, {}
  for i = 1, n do arr[i] = rand(1000) end
  for i = 1, n do hash["k" .. (arr[i] * 7 + i % 13)] = i end
  local hits, sum = 0, 0
  for i = 1, n do
    local v = hash["k" .. i % 1750]
    if v then hits = hits + 1; sum = sum + v end
  end
  for k in pairs(hash) do if #k % 2 == 0 then hash[k] = nil end end
  local left = 0
  for _ in pairs(hash) do left = left + 1 end
  local q = {}
  for i = 1, n // 4 do table.insert(q, i) end
  while #q > 1 do table.remove(q); table.remove(q, 1) end
  return string.format("tables %d %d %d %d", hits, sum % 1000003, left, #q)
end

-- strings: building, gsub, find, byte/char, concat of pieces
local function strings(n)
  local parts = {}
  for i = 1, n do parts[#parts + 1] = string.format("%05d:%s", i, string.char(97 + i % 26)) end
  local s = table.concat(parts, ",")
  local count = select(2, s:gsub("a", "A"))
  local words = 0
  for w in s:gmatch("%d+:[a-e]") do words = words + #w end
  local h = 0
  for i = 1, #s, 7 do h = (h * 33 + s:byte(i)) % 4294967296 end
  local r = s:sub(1, 64):reverse():upper()
  return string.format("strings %d %d %d %d %s", #s, count, words, h, r:sub(1, 12))
end

-- closures and upvalues: counters, function composition, higher order calls
local function closures(n)
  local function counter()
    local c = 0
    return function(d) c = c + d; return c end
  end
  local cs = {}
  for i = 1, 64 do cs[i] = counter() end
  local function compose(f, g) return function(x) return f(g(x)) end end
  local inc = function(x) return x + 1 end
  local dbl = function(x) return (x * 2) % 1000003 end
  local f = compose(inc, compose(dbl, inc))
  local total = 0
  for i = 1, n do
    total = total + cs[i % 64 + 1](i % 5)
    total = (total + f(i)) % 1000000007
  end
  return string.format("closures %d", total)
end

-- sorting with a comparison closure, and recursion
local function sorting(n)
  local t = {}
  for i = 1, n do t[i] = { key = rand(100000), id = i } end
  table.sort(t, function(a, b) if a.key ~= b.key then return a.key < b.key end return a.id < b.id end)
  local h = 0
  for i = 1, n, 97 do h = (h * 31 + t[i].key + t[i].id) % 1000000007 end
  local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end
  return string.format("sorting %d %d", h, fib(20))
end

-- a small object system: metatables, method calls, __index and __add
local function objects(n)
  local V = {}
  V.__index = V
  V.__add = function(a, b) return setmetatable({ x = a.x + b.x, y = a.y + b.y }, V) end
  function V.new(x, y) return setmetatable({ x = x, y = y }, V) end
  function V:dot(o) return self.x * o.x + self.y * o.y end
  local acc = V.new(0, 0)
  local d = 0
  for i = 1, n do
    local v = V.new(i % 17, i % 23)
    acc = acc + v
    d = (d + v:dot(acc)) % 1000000007
  end
  return string.format("objects %d %d %d", acc.x, acc.y, d)
end

for round = 1, scale do
  local out = {
    numeric(50000),
    tables(5000),
    strings(2000),
    closures(25000),
    sorting(2000),
    objects(15000),
  }
  if round == scale then
    for _, line in ipairs(out) do print(line) end
  end
end
