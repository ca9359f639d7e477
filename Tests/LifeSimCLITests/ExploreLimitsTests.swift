import Foundation
import Testing

/// `lifesim explore` at its limits: scripts whose state is large, writes
/// many pages, or is saved many times, long random walks to shrink, and
/// counterexamples of scripts that are not plain UTF-8. Each ends within
/// its limits with a message that names the limit, never with a signal.
struct ExploreLimitsTests {
  /// A script file of raw bytes (not necessarily UTF-8).
  func scriptBytes(_ name: String, _ bytes: [UInt8]) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-cli-tests")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }

  /// A script with a Latin-1 comment (which `lifesim run` accepts, as Lua
  /// reads bytes): the counterexample is written, holds the script's bytes
  /// as they were, and fails under `lifesim run` with the violation.
  @Test func aLatin1ScriptGetsItsCounterexample() throws {
    let source = """
      -- caf\u{E9}: this comment is Latin-1 in the file
      local dev = lifesim.device{ ios = 12, memory_mb = 1000 }
      local notes = dev:install{ bundle = "com.example.notes", footprint_mb = 300 }
      notes:on("applicationDidBecomeActive:", function(ctx) ctx:dirty(1) end)
      lifesim.invariant("no loss", function(d) return d.stats.unsaved_lost == 0, "lost" end)

      """
    let bytes = source.unicodeScalars.map { UInt8($0.value) }  // every scalar is below 256: Latin-1
    #expect(String(bytes: bytes, encoding: .utf8) == nil, "the script must not be UTF-8")
    let path = try scriptBytes("explore_latin1.lua", bytes)
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("cx-latin1-\(getpid()).lua")
    defer { try? FileManager.default.removeItem(at: out) }
    let r = try lifesim(["explore", path, "--quiet", "-o", out.path])
    #expect(r.status == 1, "\(r.stderr)")
    #expect(!r.stderr.contains("NSCocoaErrorDomain"), "\(r.stderr)")
    #expect(r.stderr.contains("wrote \(out.path)"), "\(r.stderr)")
    let written = try [UInt8](Data(contentsOf: out))
    #expect(written.count > bytes.count)
    #expect(written.firstRange(of: bytes) != nil, "the script's bytes are copied as they are")
    let run = try lifesim(["run", out.path])
    #expect(run.status != 0)
    #expect(run.stderr.contains("invariant 'no loss' does not hold after launch com.example.notes, kill com.example.notes: lost"),
            "\(run.stderr)")
  }
}

extension ExploreLimitsTests {
  /// Strings of one size after another, each batch dropped before the next,
  /// in the set-up: about 22 MB at most, which `lifesim run` completes under
  /// a 32 MB cap, and so must the search. (An allocator that keeps one free
  /// list per power of two and never merges them fills the search's 192 MB
  /// mapping here, and reports a false "exceeded its memory cap of 32 MB".)
  @Test func exploreKeepsToTheMemoryCapRunKeepsTo() throws {
    let path = try script("explore_sizes.lua", """
      local dev = lifesim.device{ ios = 12 }
      dev:install{ bundle = "com.example.a" }
      for k = 10, 22 do
        local size = (1 << k) * 3 // 4
        local keep = {}
        for i = 1, (16 << 20) // size do keep[i] = string.rep("x", size - 8) .. string.format("%08d", i) end
        keep = nil
        collectgarbage()
      end
      lifesim.invariant("fine", function() return true end)
      """)
    let run = try lifesim(["run", path, "--max-memory", "32"])
    #expect(run.status == 0, "\(run.stderr)")
    // Depth 0, the set-up and the invariants only: a debug build compares
    // the whole state, 32 MB here, after each restore.
    let r = try lifesim(["explore", path, "--max-memory", "32", "--depth", "0", "--quiet"])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("no violation up to depth 0"), "\(r.stdout)\(r.stderr)")
  }

  /// Each step makes a new 1 MB string, two ways, so that every level has
  /// twice the states of the one before, each saved with its megabyte: the
  /// search stops at --max-saved-memory and says so, instead of growing
  /// until the machine refuses.
  @Test func savedStatesStopAtTheirBudget() throws {
    let path = try script("explore_saved.lua", """
      local dev = lifesim.device{ ios = 12 }
      dev:install{ bundle = "com.example.a" }
      local key = ""
      big = ""
      local function grow(c)
        return function()
          key = key .. c
          big = string.rep(c, 1 << 20) .. key
        end
      end
      lifesim.action("a", grow("a"))
      lifesim.action("b", grow("b"))
      lifesim.state_key(function() return key end)
      lifesim.invariant("fine", function() return true end)
      """)
    let r = try lifesim(["explore", path, "--actions", "a,b", "--depth", "12", "--max-saved-memory", "24"])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("the search stopped at --max-saved-memory 24 MB before depth "), "\(r.stdout)")
    #expect(r.stderr.contains("(stopped at --max-saved-memory 24 MB)"), "\(r.stderr)")
    // Without the budget's stop it reaches depth 12, 8,191 states of a megabyte each.
    #expect(!r.stdout.contains("before depth 12"), "\(r.stdout)")
    let bad = try lifesim(["explore", path, "--max-saved-memory", "0"])
    #expect(bad.status == 2 && bad.stderr.contains("--max-saved-memory must be between"), "\(bad.stderr)")
  }

  /// A failure at about the 200th step of a walk: shrinking it one step at a
  /// time replays about as many steps as the failure's length cubed. It
  /// stops at --max-shrink-steps with the shortest failure found by then,
  /// says so, and says on standard error that it is shrinking.
  @Test func shrinkingStopsAtItsBudget() throws {
    let path = try script("explore_shrink.lua", """
      local dev = lifesim.device{ ios = 12 }
      dev:install{ bundle = "com.example.a" }
      local ticks = 0
      lifesim.action("tick", function() ticks = ticks + 1 end)
      lifesim.action("tock", function() end)
      lifesim.state_key(function() return tostring(ticks) end)
      lifesim.invariant("fewer than 100 ticks", function() return ticks < 100, ticks .. " ticks" end)
      """)
    let args = ["explore", path, "--actions", "tick,tock", "--random", "1", "--length", "400", "--seed", "1"]
    let r = try lifesim(args + ["--max-shrink-steps", "5000"])
    #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("invariant 'fewer than 100 ticks' does not hold after "), "\(r.stdout)")
    #expect(r.stdout.contains("100 ticks"), "\(r.stdout)")
    #expect(r.stderr.contains("shrinking a failure of "), "\(r.stderr)")
    #expect(r.stderr.contains("shrinking stopped at --max-shrink-steps 5000: a shorter sequence may fail too"),
            "\(r.stderr)")
    // The same budget, the same answer.
    let again = try lifesim(args + ["--max-shrink-steps", "5000", "--quiet"])
    #expect(again.stdout == r.stdout)
    let bad = try lifesim(args + ["--max-shrink-steps", "0"])
    #expect(bad.status == 2 && bad.stderr.contains("--max-shrink-steps must be ≥ 1"), "\(bad.stderr)")
  }
}
