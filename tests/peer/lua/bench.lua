-- tests/peer/lua/bench.lua: a small benchmark (sieve, n-body-ish float loop, string building, table churn)
local function sieve(n)
  local is = {}
  for i = 2, n do is[i] = true end
  for i = 2, math.floor(math.sqrt(n)) do
    if is[i] then for j = i * i, n, i do is[j] = false end end
  end
  local c = 0
  for i = 2, n do if is[i] then c = c + 1 end end
  return c
end
print("primes", sieve(300000))
local x, y, vx, vy = 1.0, 0.0, 0.0, 1.0
for _ = 1, 200000 do
  local r3 = (x * x + y * y) ^ 1.5
  vx = vx - x / r3 * 0.001; vy = vy - y / r3 * 0.001
  x = x + vx * 0.001; y = y + vy * 0.001
end
print(string.format("orbit %.6f %.6f", x, y))
local parts = {}
for i = 1, 20000 do parts[#parts + 1] = tostring(i % 97) end
local s = table.concat(parts)
print("concat", #s, s:sub(1, 20))
local m = {}
for i = 1, 50000 do m["k" .. (i % 5000)] = (m["k" .. (i % 5000)] or 0) + i end
local total = 0
for _, v in pairs(m) do total = total + v end
print("table churn", total)
local function ack(mm, n)
  if mm == 0 then return n + 1 end
  if n == 0 then return ack(mm - 1, 1) end
  return ack(mm - 1, ack(mm, n - 1))
end
print("ack", ack(2, 300), ack(3, 5))
