-- tests/emupeer/lua/io_coro.lua: files (write, seek, lines, remove, rename),
-- coroutines, string.pack, os.getenv and a GC cycle; deterministic output.
local name = os.tmpname()
local f = assert(io.open(name, "w"))
for i = 1, 2000 do f:write(string.format("%d %x %.3f\n", i, i * 7919, i / 7)) end
f:close()
local sum, n = 0, 0
for line in io.lines(name) do
  local a = line:match("^(%d+)")
  sum = sum + tonumber(a); n = n + 1
end
print("lines", n, "sum", sum)
f = assert(io.open(name, "rb"))
print("size", f:seek("end"))
f:seek("set", 100)
print("at 100:", f:read(12))
f:close()
local name2 = name .. ".moved"
assert(os.rename(name, name2))
print("renamed", io.open(name) == nil)
assert(os.remove(name2))
print("removed", io.open(name2) == nil)
local gen = coroutine.wrap(function()
  for i = 1, 5 do coroutine.yield(i * i) end
  return "done"
end)
local out = {}
for _ = 1, 6 do out[#out + 1] = tostring(gen()) end
print("coroutine", table.concat(out, ","))
local packed = string.pack("<i4d s1", -123456, 2.5, "kit")
print("pack", #packed, string.unpack("<i4d s1", packed))
print("env", os.getenv("KIT_EMUPEER_VAR"))
local t = {}
for i = 1, 100000 do t[i] = {i} end
t = nil
collectgarbage()
print("gc ok", collectgarbage("count") < 10000)
print(pcall(error, "boom", 0))
print(select("#", pcall(string.rep)))
