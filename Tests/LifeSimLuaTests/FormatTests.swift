import Testing
@testable import LifeSimLua

/// `string.format` is the library's, behind a C function (format.c, `ls_format`)
/// that refuses `%p` and prints tables, functions, threads and userdata
/// without their addresses.
struct FormatTests {
  @Test func formatsAsTheLibraryDoes() throws {
    let (_, out, f) = try runScript("""
      print(string.format("%5.2f|%-4d|%x|%q|%%|%s|%s", 1.5, 7, 255, "a\\n", "s", 12))
      print(("%d-%s"):format(3, nil))
      print(string.format(12), string.format("%%p is refused"))
      """)
    #expect(f == nil, "\(f?.message ?? "")")
    #expect(out == " 1.50|7   |ff|\"a\\\n\"|%|s|12\n3-nil\n12\t%p is refused\n")
  }

  @Test func objectsArePrintedWithoutAddresses() throws {
    let (_, out, f) = try runScript("""
      local t = setmetatable({}, { __tostring = function() return "T!" end })
      local co = coroutine.create(function() end)
      local u = {}
      print(string.format("%s %s %s %s", u, print, co, t))
      print(string.format("%s", u), tostring(u))
      """)
    #expect(f == nil, "\(f?.message ?? "")")
    // The numbers are the safe tostring's, in order of first printing.
    #expect(out == "table: #1 function: #2 thread: #3 T!\ntable: #1\ttable: #1\n", "\(out)")
  }

  @Test(arguments: ["%p", "%-5p", "%08.3p", "x %% %p", "%d %p"])
  func pointerConversionsAreRefused(fmt: String) throws {
    let (_, _, f) = try runScript("local s = string.format('\(fmt)', 1, {})")
    #expect(f?.message == "test:1: bad argument #1 to 'format' (%p prints an address, which changes from run to run)",
            "\(f?.message ?? "no error")")
  }

  @Test(arguments: ["%%p", "%5d", "%s", "100%%", "%"])
  func otherConversionsAreNotRefusedForP(fmt: String) throws {
    let (_, _, f) = try runScript("pcall(string.format, '\(fmt)', 1) local ok = pcall(string.format, '\(fmt)', 1)")
    #expect(f == nil, "\(fmt): \(f?.message ?? "")")
    let (_, _, g) = try runScript("local s = string.format('\(fmt)', 1)")
    #expect(g?.message.contains("%p") != true, "\(fmt): \(g?.message ?? "")")
  }

  /// The library's own argument errors name `format` and the script's line,
  /// not the wrapper's.
  @Test func argumentErrorsNameFormatAndTheCaller() throws {
    let (_, _, f) = try runScript("""
      local x = 1
      local s = string.format("%d", "many")
      """)
    #expect(f?.message == "test:2: bad argument #2 to 'format' (number expected, got string)",
            "\(f?.message ?? "no error")")
    let (_, _, g) = try runScript("local s = string.format()")
    #expect(g?.message == "test:1: bad argument #1 to 'format' (string expected, got no value)",
            "\(g?.message ?? "no error")")
  }

  /// An error in a `__tostring` the format calls reaches the script.
  @Test func tostringErrorsPropagate() throws {
    let (_, _, f) = try runScript("""
      local t = setmetatable({}, { __tostring = function() error("no text", 0) end })
      local s = string.format("%s", t)
      """)
    #expect(f?.message.contains("no text") == true, "\(f?.message ?? "no error")")
  }
}

extension FormatTests {
  @Test func manyObjectArgumentsFitTheStack() throws {
    let (_, out, f) = try runScript("""
      local args = {}
      for i = 1, 300 do args[i] = {} end
      local s = string.format(string.rep("%s ", 300), table.unpack(args))
      print(#s, s:sub(1, 20))
      """)
    #expect(f == nil, "\(f?.message ?? "")")
    #expect(out.hasPrefix("3492\ttable: #1 table: #2 "), "\(out)")
  }

  /// A `__tostring` that returns no string is reported at the caller's line,
  /// as `tostring` reports it; a false one counts as none.
  @Test func aBadTostringIsReportedAtTheCaller() throws {
    let (_, _, f) = try runScript("""
      local t = setmetatable({}, { __tostring = function() return 1 end })
      local s = string.format("%s", t)
      """)
    #expect(f?.message == "test:2: '__tostring' must return a string", "\(f?.message ?? "no error")")
    let (_, out, g) = try runScript("""
      print(string.format("%s", setmetatable({}, { __tostring = false })))
      """)
    #expect(g == nil && out == "table: #1\n", "\(g?.message ?? out)")
  }
}
