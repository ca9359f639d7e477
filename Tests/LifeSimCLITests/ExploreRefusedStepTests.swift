import Foundation
import Testing

/// A script action whose device call is refused has still run its Lua code:
/// the search keeps what it changed, as a replay of the same steps does.
struct ExploreRefusedStepTests {
  private let source = """
    local dev = lifesim.device{ ios = 17 }
    local a = dev:install{ bundle = "com.example.a" }
    dev:lock()
    local n = 0
    for _, s in ipairs{ "launch", "home", "lock", "unlock", "kill", "switcher", "memory_warning", "wait" } do
      lifesim.action(s, false)
    end
    -- The phone stays locked: open_url is refused every time, after n grew.
    lifesim.action("bump", function(d) n = n + 1; d:open_url(a, "notes://x") end)
    lifesim.state_key(function() return n end)
    lifesim.invariant("n stays below 2", function() return n < 2, "n reached 2" end)
    """

  @Test func theSearchAndItsReplaysAgree() throws {
    let path = try script("refused_keeps.lua", source)
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("refused_keeps_cx.lua").path
    let r = try lifesim(["explore", path, "--depth", "3", "-o", out])
    #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("does not hold after 2 steps: bump, bump"), "\(r.stdout)")
    // The counterexample replays the same steps under `lifesim run` and fails the same way.
    let replay = try lifesim(["run", out])
    #expect(replay.status == 2, "\(replay.stdout)\(replay.stderr)")
    #expect(replay.stderr.contains("n reached 2"), "\(replay.stderr)")
    // Random walks confirm what they find instead of calling the script non-deterministic.
    let walks = try lifesim(["explore", path, "--random", "50", "--length", "20", "--seed", "1"])
    #expect(walks.status == 1, "\(walks.stdout)\(walks.stderr)")
    #expect(!walks.stderr.contains("not deterministic") && !walks.stdout.contains("not deterministic"), "\(walks.stdout)\(walks.stderr)")
  }
}
