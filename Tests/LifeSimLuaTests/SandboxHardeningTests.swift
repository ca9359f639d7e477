import Foundation
import Testing
import LifeSimEngine
@testable import LifeSimLua

/// The library functions that run loops in C, where the count hook never
/// sees them (hardening.c), and the sandbox's seal on weak tables.
struct SandboxHardeningTests {
  /// string.find, match, gmatch and gsub count their steps, but give what
  /// Lua 5.4's own functions give: results, captures and messages (the text
  /// below is what the stock interpreter prints for this script).
  @Test func patternFunctionsGiveStockResults() throws {
    let (_, out, failure) = try runScript(#"""
      local cases = {
        { "hello world", "o w" }, { "hello world", "l+" }, { "  key = value  ", "(%w+)%s*=%s*(%w+)" },
        { "THE (quick) fox", "%((%a+)%)" }, { "f(a(b)c)d", "%b()" }, { "THE (quick) fox", "%f[%a]%a+" },
        { "x=1, y=22, z=333", "()(%d+)()" }, { "abcabc", "(a)(b)(c)%1" }, { "aaa", "a-b" }, { "aaa", "^a-$" },
        { "a.b.c", "%." }, { "[[x]]", "[%[%]]+" }, { "über", "[\128-\255]+" }, { "", "" },
        { "abc", "$" }, { "a$b", "a$b" }, { "foo123bar", "%d*" }, { "x", "x?x?x" }, { "hello", ".-l" },
      }
      local function show(...) local t = table.pack(...) for i = 1, t.n do t[i] = tostring(t[i]) end return table.concat(t, ",") end
      for _, c in ipairs(cases) do
        local s, p = c[1], c[2]
        print(show(s:find(p)), show(s:find(p, 2)), show(s:match(p)), show(s:gsub(p, "<%0>")), show(s:gsub(p, "%%")),
              show(s:gsub(p, function(...) return select("#", ...) end)))
        local g = {} for a, b in s:gmatch(p) do g[#g + 1] = show(a, b) end print(table.concat(g, ";"))
      end
      for _, p in ipairs({ "%", "[a", "(()", "%1", "%b", "%f", "a)", "((((((((((((((((((((((((((((((((((a))))))))))))))))))))))))))))))))" }) do
        print(select(2, pcall(string.find, "abc", p)))
      end
      print(select(2, pcall(string.gsub, "abc", "b", "%2")), select(2, pcall(string.gsub, "abc", "b", "%x")))
      print(select(2, pcall(string.gsub, "abc", "b", {b = {}})))
      print(string.find("a+b", "+", 1, true), string.find("abc", "c", -1), string.find("abc", "", 10), string.rep("ab", 3, "-"))
      """#)
    #expect(failure == nil, "\(failure?.report ?? "")")
    #expect(out == #"""
      5,7	5,7	o w	hell<o w>orld,1	hell%orld,1	hell1orld,1
      o w,nil
      3,4	3,4	ll	he<ll>o wor<l>d,2	he%o wor%d,2	he1o wor1d,2
      ll,nil;l,nil
      3,13,key,value	3,13,key,value	key,value	  <key = value>  ,1	  %  ,1	  2  ,1
      key,value
      5,11,quick	5,11,quick	quick	THE <(quick)> fox,1	THE % fox,1	THE 1 fox,1
      quick,nil
      2,8	2,8	(a(b)c)	f<(a(b)c)>d,1	f%d,1	f1d,1
      (a(b)c),nil
      1,3	6,10	THE	<THE> (<quick>) <fox>,3	% (%) %,3	1 (1) 1,3
      THE,nil;quick,nil;fox,nil
      3,3,3,1,4	3,3,3,1,4	3,1,4	x=<1>, y=<22>, z=<333>,3	x=%, y=%, z=%,3	x=3, y=3, z=3,3
      3,1;8,22;14,333
      1,4,a,b,c	nil	a,b,c	<abca>bc,1	%bc,1	3bc,1
      a,b
      nil	nil	nil	aaa,0	aaa,0	aaa,0

      1,3	2,3	aaa	<aaa>,1	%,1	1,1

      2,2	2,2	.	a<.>b<.>c,2	a%b%c,2	a1b1c,2
      .,nil;.,nil
      1,2	2,2	[[	<[[>x<]]>,2	%x%,2	1x1,2
      [[,nil;]],nil
      1,2	2,2	ü	<ü>ber,1	%ber,1	1ber,1
      ü,nil
      1,0	nil		<>,1	%,1	1,1
      ,nil
      4,3	4,3		abc<>,1	abc%,1	abc1,1
      ,nil
      1,3	nil	a$b	<a$b>,1	%,1	1,1
      a$b,nil
      1,0	2,1		<>f<>o<>o<123>b<>a<>r<>,7	%f%o%o%b%a%r%,7	1f1o1o1b1a1r1,7
      ,nil;,nil;,nil;123,nil;,nil;,nil;,nil
      1,1	nil	x	<x>,1	%,1	1,1
      x,nil
      1,3	2,3	hel	<hel><l>o,2	%%o,2	11o,2
      hel,nil;l,nil
      malformed pattern (ends with '%')
      malformed pattern (missing ']')
      unfinished capture
      invalid capture index %1
      malformed pattern (missing arguments to '%b')
      missing '[' after '%f' in pattern
      nil
      too many captures
      invalid capture index %2	invalid use of '%' in replacement string
      invalid replacement value (a table)
      2	3	nil	ab-ab-ab

      """#)
  }

  /// Exponential backtracking ends at the run's instruction budget, at the
  /// script's line, however it is called (pcall cannot catch its way past).
  @Test func backtrackingStopsAtTheInstructionLimit() throws {
    for call in ["string.find(s, p)", "pcall(string.match, s, p); string.match(s, p)",
                 "for _ in s:gmatch(p) do end", "s:gsub(p, '')"] {
      let start = Date()
      let (_, _, failure) = try runScript("""
        local s, p = ("a"):rep(30), ("a*"):rep(30) .. "b"
        \(call)
        """) { $0.maxInstructions = 5_000_000 }
      #expect(failure?.message.hasPrefix("test:2: instruction limit reached for the run (--max-instructions)") == true,
              "\(call): \(failure?.message ?? "no failure")")
      #expect(Date().timeIntervalSince(start) < 20, "\(call) ran for too long")
    }
  }

  /// A plain find costs the product of the lengths; table.move over 2^63 nil
  /// slots allocates nothing; both pay as instructions. string.rep of nothing
  /// returns at once.
  @Test func loopsInCPayForTheirWork() throws {
    let (_, _, find) = try runScript("""
      local hay, needle = ("a"):rep(200000), ("a"):rep(100000) .. "b"
      return string.find(hay, needle, 1, true)
      """) { $0.maxInstructions = 5_000_000 }
    #expect(find?.message.hasPrefix("test:2: instruction limit reached for the run") == true, "\(find?.message ?? "")")
    let (_, _, move) = try runScript("table.move({}, 1, math.maxinteger, 1)")
    #expect(move?.message.hasPrefix("test:1: instruction limit reached for the run") == true, "\(move?.message ?? "")")
    let (_, out, rep) = try runScript(#"print(#string.rep("", math.maxinteger), #(""):rep(math.maxinteger, ""))"#)
    #expect(rep == nil)
    #expect(out == "0\t0\n")
    // Inserting at the front of a long array shifts it in C each time.
    let (_, _, shift) = try runScript("""
      local t = {} for i = 1, 100000 do t[i] = i end
      for i = 1, 100000 do table.insert(t, 1, i) end
      """) { $0.maxInstructions = 5_000_000 }
    #expect(shift?.message.hasPrefix("test:2: instruction limit reached for the run") == true, "\(shift?.message ?? "")")
    // Appending shifts nothing, and pays nothing for it.
    let (_, _, append) = try runScript("""
      local t = {} for i = 1, 100000 do t[i] = i end
      for i = 1, 100000 do table.insert(t, 1); table.remove(t) end
      """) { $0.maxInstructions = 5_000_000 }
    #expect(append == nil, "\(append?.message ?? "")")
    let (_, shifted, fine) = try runScript("""
      local t = { "a", "b", "c" }
      table.insert(t, 2, "x"); table.insert(t, "z")
      print(table.remove(t, 1), table.remove(t), table.concat(t, ","), pcall(table.insert, t, 9, "y"))
      """)
    #expect(fine == nil && shifted.hasPrefix("a\tz\tx,b,c\tfalse\tbad argument #2 to ")
            && shifted.hasSuffix("insert' (position out of bounds)\n"), "\(shifted)")
    // Small moves still move, and charge nothing that shows.
    let (_, moved, none) = try runScript("print(table.concat(table.move({1, 2, 3}, 1, 3, 2), ','))")
    #expect(none == nil && moved == "1,1,2,3\n")
  }

  /// A sealed metatable still takes new fields and shows no metatable of its
  /// own; only __mode is refused, by assignment and by rawset alike.
  @Test func sealedMetatablesBehaveAsBefore() throws {
    let (_, out, failure) = try runScript("""
      local Point = {}
      local p = setmetatable({ x = 1 }, Point)
      Point.__index = Point            -- added after setmetatable: through the seal
      function Point:len() return self.x end
      rawset(Point, "name", "point")
      print(p:len(), getmetatable(p) == Point, getmetatable(Point), Point.name, setmetatable(Point, nil) == Point)
      print(pcall(function() Point.__mode = "k" end))
      print(pcall(rawset, Point, "__mode", "v"))
      print(pcall(setmetatable, {}, setmetatable({}, {})))
      """)
    #expect(failure == nil, "\(failure?.report ?? "")")
    let lines = out.split(separator: "\n").map(String.init)
    #expect(lines.first == "1\ttrue\tnil\tpoint\ttrue")
    #expect(lines.count == 4 && lines[1].hasPrefix("false\ttest:7: a metatable in use cannot gain __mode"))
    #expect(lines.count == 4 && lines[2].contains("rawset: a metatable in use cannot gain __mode"))
    #expect(lines.count == 4 && lines[3].hasPrefix("true\ttable: #"))  // a metatable may have a metatable
  }
}

/// Errors raised inside the prelude's wrappers name the script's line.
struct PreludeErrorLocationTests {
  @Test func wrapperErrorsNameTheScriptLine() throws {
    let cases: [(String, String)] = [
      ("local t = { 1, {} }\ntable.sort(t)", "test:2: attempt to compare table with number"),
      ("math.randomseed('x')", "test:1: bad argument #1 to 'randomseed'"),
      ("setmetatable({}, 5)", "test:1: bad argument #2 to 'setmetatable' (nil or table expected)"),
      ("collectgarbage('step', 'x')", "test:1: bad argument #2 to 'collectgarbage'"),
      ("load({})", "test:1: bad argument #1 to 'load' (function expected, got table)"),
      ("local v = setmetatable({}, { __tostring = function() return 1 end })\nprint(v)",
       "test:2: '__tostring' must return a string"),
      ("local v = setmetatable({}, { __pairs = 5 })\nfor k in pairs(v) do end", "test:2: attempt to call a number value"),
      // Caught by the script's own pcall: the message names its line too.
      ("local v = setmetatable({}, { __pairs = 5 })\nlocal ok, e = pcall(function() for k in pairs(v) do end end)\nerror(e, 0)",
       "test:2: attempt to call a number value (metamethod '__pairs')"),
      ("local ok, e = pcall(function() table.sort({ 1, 'x' }) end)\nerror(e, 0)", "test:1: attempt to compare"),
      ("local ok, e = pcall(function()\n print(setmetatable({}, { __tostring = {} }))\nend)\nerror(e, 0)",
       "test:2: attempt to call a table value (metamethod '__tostring')"),
    ]
    for (source, expected) in cases {
      let (_, _, failure) = try runScript(source)
      #expect(failure?.message.hasPrefix(expected) == true, "\(source): \(failure?.message ?? "no failure")")
    }
  }
}

/// No script table is weak in the sandbox, whichever way its metatable got
/// __mode: what it holds never depends on when the collector ran.
struct WeakTableTests {
  @Test func aMetatableOfAMetatableCannotMakeATableWeak() throws {
    let (_, out, failure) = try runScript("""
      local outer = {}
      local mt = setmetatable({}, outer)   -- mt takes new keys through outer, which the seal cannot see
      local cache = setmetatable({}, mt)
      mt.__mode = "v"
      cache[1] = {}
      collectgarbage(); collectgarbage()
      print(cache[1] ~= nil and "kept" or "collected")
      """)
    #expect(failure == nil, "\(failure?.report ?? "")")
    #expect(out == "kept\n")
  }

  /// lifesim's own weak tables stay weak: a device nobody holds is collected.
  @Test func lifesimsOwnWeakTablesStillWork() throws {
    let (_, out, failure) = try runScript("""
      do local dev = lifesim.device{ ios = 17 } end
      collectgarbage(); collectgarbage()
      local before = collectgarbage("count")
      for i = 1, 20000 do local t = {}; tostring(t) end  -- each table gets an id in a weak-keyed table
      collectgarbage(); collectgarbage()
      print(collectgarbage("count") < before + 256)  -- held strongly, they would take over 1 MB
      """) { $0.retainDevices = false }
    #expect(failure == nil, "\(failure?.report ?? "")")
    #expect(out.hasSuffix("true\n"))
  }
}
