import Foundation
import Testing

/// `lifesim explore` on the examples of Scripts/explore: the
/// shortest violation, the counterexample that fails the same way under
/// `lifesim run`, the same answer every time, and no violation for the
/// correct app.
struct ExploreTests {
  @Test func saveOnTerminateLosesDataAtDepthThree() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("cx-\(getpid()).lua")
    defer { try? FileManager.default.removeItem(at: out) }
    let r = try lifesim(["explore", "Scripts/explore/save_on_terminate.lua", "--depth", "4", "-o", out.path, "--quiet"])
    #expect(r.status == 1, "\(r.stderr)")
    #expect(r.stdout.contains("invariant 'no unsaved data is lost' does not hold after 3 steps: "
                              + "launch com.example.notes, home, kill com.example.notes"))
    #expect(r.stdout.contains("1 unsaved changes lost"))
    #expect(r.stdout.contains("data_loss reason=user 1 unsaved"))  // the trace of the failing run
    #expect(r.stdout.contains("reachable 'the app is suspended': reached"))
    // The counterexample is a scenario that fails the same way.
    let replay = try lifesim(["run", out.path])
    #expect(replay.status != 0)
    #expect(replay.stderr.contains("invariant 'no unsaved data is lost' does not hold after launch com.example.notes, home, kill com.example.notes: 1 unsaved changes lost"))
    // Deterministic: the same search gives the same bytes.
    let again = try lifesim(["explore", "Scripts/explore/save_on_terminate.lua", "--depth", "4", "--quiet"])
    #expect(again.stdout == r.stdout)
  }

  @Test func aMemoryPressureKillIsFoundWhenForceQuitIsLeftOut() throws {
    let r = try lifesim(["explore", "Scripts/explore/save_on_terminate.lua", "--depth", "4", "--quiet",
                         "--actions", "launch com.example.notes,home,memory_pressure,advance 10"])
    #expect(r.status == 1)
    #expect(r.stdout.contains("after 3 steps: launch com.example.notes, home, memory_pressure"))
    #expect(r.stdout.contains("kill reason=vm-pageshortage"))
  }

  @Test func theForgottenTaskIsKilled() throws {
    let r = try lifesim(["explore", "Scripts/explore/forgotten_task.lua", "--depth", "5", "--quiet"])
    #expect(r.status == 1, "\(r.stderr)")
    #expect(r.stdout.contains("invariant 'never killed for an open background task' does not hold after 5 steps"))
    #expect(r.stdout.contains("kill reason=background-task"))
  }

  /// BGTaskScheduler's steps (reference §3.5): the search runs the app's
  /// pending request and finds the download lost.
  @Test func aRefreshTaskLosesItsDownload() throws {
    let r = try lifesim(["explore", "Scripts/explore/refresh_expires.lua", "--depth", "4", "--quiet"])
    #expect(r.status == 1, "\(r.stderr)")
    #expect(r.stdout.contains("run_task com.example.feed, expire_task com.example.feed"))  // the alphabet
    #expect(r.stdout.contains("does not hold after 4 steps: launch com.example.feed, home, run_task com.example.feed, kill com.example.feed"))
    #expect(r.stdout.contains("warning BGAppRefreshTask com.example.feed.refresh ended with its process"))
  }

  /// A lock held on a shared file is part of a state (reference §3.5.1):
  /// the search does not merge it with the state without, and finds the kill.
  @Test func aFileLockHeldAtSuspensionIsFound() throws {
    let s = try script("lock.lua", """
      local dev = lifesim.device{ ios = 17 }
      local app = dev:install{ bundle = "com.example.notes" }
      app:on("applicationDidReceiveMemoryWarning:", function(ctx) ctx:lock_file("group.sqlite") end)
      lifesim.invariant("no 0xdead10cc", function(d) return d.stats.kills["file-lock"] == 0, "killed for a file lock" end)
      """)
    let r = try lifesim(["explore", s, "--depth", "4", "--quiet", "--actions", "launch com.example.notes,home,memory_warning"])
    #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("after 3 steps: launch com.example.notes, memory_warning, home"), "\(r.stdout)")
    #expect(r.stdout.contains("kill reason=file-lock code=0xdead10cc"))
  }

  @Test func theCorrectAppHasNoViolationUpToDepthSix() throws {
    let r = try lifesim(["explore", "Scripts/explore/correct_app.lua", "--depth", "6", "--quiet"])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("no violation up to depth 6"))
    #expect(r.stderr.contains("distinct, depth 6"))
  }

  /// Workers replay a level's sequences in parallel and merge in order: the
  /// same answer, byte for byte, for any --jobs. Coverage names the edges.
  @Test func jobsDoNotChangeTheAnswerAndCoverageIsReported() throws {
    let one = try lifesim(["explore", "Scripts/explore/correct_app.lua", "--depth", "4", "--quiet", "-j", "1"])
    let two = try lifesim(["explore", "Scripts/explore/correct_app.lua", "--depth", "4", "--quiet", "-j", "2"])
    #expect(one.status == 0 && two.status == 0)
    #expect(one.stdout == two.stdout)
    #expect(one.stdout.contains("coverage, process (app delegate): "))
    #expect(one.stdout.contains("never taken: notRunning --launchInBackground--> background"))  // no fetch mode
    let cx1 = try lifesim(["explore", "Scripts/explore/forgotten_task.lua", "--depth", "5", "--quiet", "-j", "1"])
    let cx2 = try lifesim(["explore", "Scripts/explore/forgotten_task.lua", "--depth", "5", "--quiet", "-j", "2"])
    #expect(cx1.status == 1 && cx1.stdout == cx2.stdout)
  }

  /// Random walks deeper than the search, each failure shrunk to a shortest
  /// failing subsequence; the same seed, the same answer.
  @Test func randomWalksAreShrunk() throws {
    let r = try lifesim(["explore", "Scripts/explore/forgotten_task.lua", "--random", "50", "--length", "30",
                         "--seed", "3", "--quiet"])
    #expect(r.status == 1, "\(r.stderr)")
    // Five steps, as short as the breadth-first search's answer (a lock leaves
    // the app in the background as home does).
    #expect(r.stdout.contains("does not hold after 5 steps: launch com.example.upload, lock, unlock, lock, advance 60"),
            "\(r.stdout)")
    let again = try lifesim(["explore", "Scripts/explore/forgotten_task.lua", "--random", "50", "--length", "30",
                             "--seed", "3", "--quiet"])
    #expect(again.stdout == r.stdout)
  }

  @Test func aHandlerErrorIsAViolationAndAnUnreachedPropertyFails() throws {
    let failing = try script("explore_error.lua", """
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.a" }
      app:on("applicationDidEnterBackground:", function(ctx) error("boom") end)
      lifesim.invariant("always", function(d) return true end)
      """)
    let r = try lifesim(["explore", failing, "--depth", "3", "--quiet"])
    #expect(r.status == 1)
    #expect(r.stdout.contains("a handler fails after 2 steps: launch com.example.a, home"))
    #expect(r.stdout.contains("boom"))
    let unreached = try script("explore_unreached.lua", """
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.a" }
      lifesim.invariant("always", function(d) return true end)
      lifesim.reachable("two apps run", function(d) return #d.apps == 2 end)
      lifesim.action("memory_pressure", false)
      """)
    let u = try lifesim(["explore", unreached, "--depth", "2", "--quiet"])
    #expect(u.status == 1)
    #expect(u.stdout.contains("reachable 'two apps run': never reached"))
    #expect(!u.stdout.contains("memory_pressure"))
    let none = try script("explore_none.lua", "lifesim.invariant('x', function() return true end)\n")
    let n = try lifesim(["explore", none])
    #expect(n.status == 2 && n.stderr.contains("makes no device"))
  }
}

extension ExploreTests {
  /// A script that reads something outside the device cannot be replayed:
  /// the search says so instead of answering wrongly.
  @Test func aScriptThatCannotBeReplayedGetsAClearError() throws {
    let counter = FileManager.default.temporaryDirectory.appendingPathComponent("explore-counter-\(getpid())")
    try "0".write(to: counter, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: counter) }
    let path = try script("explore_outside.lua", """
      local f = io.open("\(counter.path)"); local n = tonumber(f:read("a")); f:close()
      f = io.open("\(counter.path)", "w"); f:write(tostring(n + 1)); f:close()
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.a", footprint_mb = 100 + n }
      lifesim.invariant("always", function(d) return true end)
      """)
    let r = try lifesim(["explore", path, "--depth", "2", "--unsafe", "--quiet"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("depends on something outside the device"), "\(r.stderr)")
  }
}

extension ExploreTests {
  /// The search keeps the script's own Lua values with each state: an action
  /// that counts in an upvalue, told apart by lifesim.state_key, reaches the
  /// count its invariant forbids at exactly that depth, with any --jobs.
  @Test func scriptValuesAreKeptWithEachState() throws {
    let file = try script("explore_counter.lua", """
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.counter" }
      local edits, saved = 0, 0
      app:on("applicationDidEnterBackground:", function(ctx) saved = edits end)
      lifesim.action("edit", function(d) if app.state == "active" then edits = edits + 1 end end)
      lifesim.state_key(function(d) return edits .. "/" .. saved end)
      lifesim.invariant("at most two unsaved edits", function(d)
        return edits - saved <= 2, string.format("%d edits, %d saved", edits, saved)
      end)
      """)
    let one = try lifesim(["explore", file, "--depth", "5", "--quiet", "--actions", "launch com.example.counter,home,edit"])
    #expect(one.status == 1, "\(one.stderr)")
    #expect(one.stdout.contains("invariant 'at most two unsaved edits' does not hold after 4 steps: "
                                + "launch com.example.counter, edit, edit, edit"), "\(one.stdout)")
    #expect(one.stdout.contains("3 edits, 0 saved"))
    let two = try lifesim(["explore", file, "--depth", "5", "--quiet", "--actions", "launch com.example.counter,home,edit", "-j", "2"])
    #expect(two.stdout == one.stdout)
  }
}

extension ExploreTests {
  /// The replays from the start share one runtime, put back to its state
  /// after the set-up each time. A walk whose action makes a device cannot
  /// be put back that way; the next walk starts in a new runtime instead of
  /// failing.
  @Test func randomWalksWhoseActionsMakeDevicesStillRun() throws {
    let path = try script("explore_spawn.lua", """
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.a", footprint_mb = 100 }
      local extra = {}
      lifesim.action("spawn", function(d) extra[#extra + 1] = lifesim.device{ ios = 12 } end)
      lifesim.invariant("at most two more devices", function(d) return #extra <= 2, #extra .. " more devices" end)
      """)
    let r = try lifesim(["explore", path, "--random", "50", "--length", "4", "--actions", "spawn,home", "--quiet"])
    #expect(r.status == 1, "\(r.stderr)")
    #expect(r.stdout.contains("3 more devices") && r.stdout.contains("spawn, spawn, spawn"), "\(r.stdout)\(r.stderr)")
  }

  /// Under --unsafe a step may not use a file: going back to a state copies
  /// the Lua state's bytes, which cannot reopen or unclose one (a file the
  /// set-up opened and a step closed would be closed again). The set-up may.
  @Test(arguments: [["--depth", "2"], ["--random", "20", "--length", "2"]])
  func aStepThatUsesAFileGetsAClearError(mode: [String]) throws {
    let path = try script("explore_file.lua", """
      local f = io.open("\(#filePath)")
      local first = f:read("l")
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.a", footprint_mb = 100 }
      lifesim.action("close", function(d) f:close() end)
      lifesim.invariant("always", function(d) return first ~= nil end)
      """)
    let r = try lifesim(["explore", path, "--unsafe", "--actions", "home,close", "--quiet"] + mode)
    #expect(r.status == 2, "\(r.status): \(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("cannot take back what a file does"), "\(r.stderr)")
    #expect(r.stderr.contains("explore_file.lua:5:"), "\(r.stderr)")
  }

  /// So may an invariant: it is the search's limit, an error, not a violation.
  @Test func anInvariantThatUsesAFileGetsAClearError() throws {
    let path = try script("explore_file_invariant.lua", """
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.a", footprint_mb = 100 }
      lifesim.invariant("reads", function(d) return io.open("\(#filePath)") ~= nil end)
      """)
    let r = try lifesim(["explore", path, "--unsafe", "--depth", "1", "--quiet"])
    #expect(r.status == 2, "\(r.status): \(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("cannot take back what a file does"), "\(r.stderr)")
  }
}
