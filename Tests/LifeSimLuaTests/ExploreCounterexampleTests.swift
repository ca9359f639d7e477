import Testing
import CLua
import CLuaShim
@testable import LifeSimLua

/// The scenario `lifesim explore -o` writes: whatever the names in it hold,
/// it compiles, and its comments stay comments.
struct ExploreCounterexampleTests {
  /// Whether `bytes` compile as a Lua chunk, and the message if not.
  func compiles(_ bytes: [UInt8]) throws -> (Bool, String) {
    let rt = try LuaRuntime(options: RuntimeOptions())
    do {
      try rt.load(bytes: bytes, chunkName: "=counterexample")
      ls_pop(rt.L, 1)
      return (true, "")
    } catch let f as LuaFailure {
      return (false, f.message)
    }
  }

  /// Step names, an invariant's name, a message and a file name with a
  /// newline, a carriage return and other control characters: each would end
  /// the comment line it is written into, and the rest would be read as code.
  @Test func namesWithNewlinesStayInTheirComments() throws {
    let v = ExploreViolation(steps: ["launch com.example\nerror('forged')", "tap\r\"x\" \u{1}"],
                             invariant: "never\nos.exit()", message: "lost\r x = (", trace: "")
    let bytes = Explorer.counterexample(script: Array("local x = 1\n".utf8), file: "dir\n/s.lua", v,
                                        command: "lifesim run 'a\nb.lua'")
    let (ok, message) = try compiles(bytes)
    #expect(ok, "\(message)\n\(String(decoding: bytes, as: UTF8.self))")
    let text = String(decoding: bytes, as: UTF8.self)
    // The steps are replayed as they are, quoted.
    #expect(text.contains(#"lifesim.replay{ "launch com.example\nerror('forged')", "tap\r\"x\" \001" }"#), "\(text)")
    // Every line after the script is a comment, the replay, or empty.
    let end = try #require(text.firstRange(of: "end)(...)\n"))
    let after = text[end.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
    for line in after where !line.isEmpty {
      #expect(line.hasPrefix("--") || line.hasPrefix("lifesim.replay{"), "a line that is code: \(line)")
    }
  }

  /// The script's bytes go in unchanged: a Latin-1 comment, an invalid UTF-8
  /// string, and no newline at the end.
  @Test func theScriptsBytesAreCopiedAsTheyAre() throws {
    let script: [UInt8] = Array("-- caf".utf8) + [0xE9] + Array("\nlocal s = \"".utf8) + [0xFF, 0xFE] + Array("\"".utf8)
    let v = ExploreViolation(steps: ["home"], invariant: "i", message: "m", trace: "")
    let bytes = Explorer.counterexample(script: script, file: "s.lua", v, command: "lifesim run s.lua")
    #expect(bytes.firstRange(of: script) != nil)
    #expect(try compiles(bytes).0)
  }
}
