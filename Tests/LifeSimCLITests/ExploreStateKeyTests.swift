import Foundation
import Testing

/// `lifesim explore` tells states apart by what decides their future: the
/// script's `lifesim.state_key` taken exactly, and the engine's fingerprint.
struct ExploreStateKeyTests {
  /// A counter the search can only see through state_key, and an invariant
  /// that breaks when it reaches 2.
  private func counterScript(_ name: String, key: String) throws -> String {
    try script(name, """
      local dev = lifesim.device{ ios = 17 }
      dev:install{ bundle = "com.example.a" }
      local n = 0
      for _, a in ipairs{ "launch", "home", "lock", "unlock", "kill", "switcher", "memory_warning", "wait" } do
        lifesim.action(a, false)
      end
      lifesim.action("bump", function(d) n = n + 1 end)
      lifesim.state_key(function(d) return \(key) end)
      lifesim.invariant("n stays below 2", function(d) return n < 2, "n reached 2" end)
      """)
  }

  @Test func aNumberKeyTellsStatesApart() throws {
    let r = try lifesim(["explore", try counterScript("key_number.lua", key: "n"), "--depth", "3"])
    #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("n reached 2"), "\(r.stdout)")
  }

  @Test func aBinaryKeyIsTakenByItsBytes() throws {
    // string.pack gives bytes that are not UTF-8; decoded, 1 and 2 would merge.
    let r = try lifesim(["explore", try counterScript("key_bytes.lua", key: "string.char(0xC0 + n)"), "--depth", "3"])
    #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("n reached 2"), "\(r.stdout)")
  }

  @Test func anotherKindOfKeyIsAnErrorAtItsLine() throws {
    let path = try counterScript("key_table.lua", key: "{ n }")
    let r = try lifesim(["explore", path, "--depth", "2"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("\(path):8: the function given to lifesim.state_key must return a string or a number, got table"),
            "\(r.stderr)")
  }

  /// The search's count on the bench script, now that last uses at the
  /// current instant and ties count (the engine's tests show why each matters).
  @Test func theBenchScriptsStatesAtDepth4() throws {
    let r = try lifesim(["explore", "bench/explore/two_apps.lua", "--depth", "4"])
    #expect(r.status == 0, "\(r.stderr)")
    let last = r.stderr.split(separator: "\n").last { $0.contains("distinct, depth") }.map(String.init) ?? ""
    #expect(last.hasPrefix("lifesim explore: 2194 states, 386 distinct"), "\(last)")
  }
}
