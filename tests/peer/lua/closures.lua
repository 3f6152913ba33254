-- tests/peer/lua/closures.lua: closures, upvalues, varargs, recursion, coroutines, goto
local function counter()
  local c = 0
  return function() c = c + 1; return c end
end
local c1, c2 = counter(), counter()
print(c1(), c1(), c1(), c2())
local fns = {}
for i = 1, 5 do fns[i] = function() return i * 10 end end
print(fns[1](), fns[3](), fns[5]())
local function va(...)
  local n = select("#", ...)
  local t = { ... }
  return n, #t, (select(n > 0 and n or 1, ...))
end
print(va(), va(1, 2, 3), va(nil, nil))
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print(fib(20))
local function tail(n, acc) if n == 0 then return acc end return tail(n - 1, acc + n) end
print(tail(100000, 0))
local gen = coroutine.wrap(function()
  for i = 1, 5 do coroutine.yield(i * i) end
  return "done"
end)
print(gen(), gen(), gen(), gen(), gen(), gen())
local co = coroutine.create(function(a, b)
  local c = coroutine.yield(a + b)
  local d, e = coroutine.yield(c * 2)
  return d + e
end)
print(coroutine.resume(co, 1, 2))
print(coroutine.resume(co, 10))
print(coroutine.resume(co, 3, 4))
print(coroutine.resume(co), coroutine.status(co))
local function producer()
  return coroutine.create(function()
    for _, w in ipairs({ "alpha", "beta", "gamma" }) do coroutine.yield(w) end
  end)
end
local p = producer()
local out = {}
while true do
  local ok, w = coroutine.resume(p)
  if not w then break end
  out[#out + 1] = w:upper()
end
print(table.concat(out, " "), coroutine.isyieldable())
for i = 1, 3 do
  for j = 1, 3 do
    if j == 2 then goto continue end
    io.write(i, j, " ")
    ::continue::
  end
end
print()
local compose = function(f, g) return function(...) return f(g(...)) end end
print(compose(math.abs, function(x) return x - 10 end)(3))
