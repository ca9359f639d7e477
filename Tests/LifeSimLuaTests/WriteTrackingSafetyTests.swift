import Foundation
import Testing
import CLua
import CLuaShim
import LifeSimEngine
@testable import LifeSimLua

/// Write tracking is a speed-up that must never change an answer: it is off
/// unless the caller asks (a fault handler is process-wide), it catches the
/// faults Darwin reports (SIGBUS) as well as Linux's (SIGSEGV), and a restore
/// that left bytes of another state stops the search with a message instead
/// of going on with a wrong state.
struct WriteTrackingSafetyTests {
  @Test func theLibraryDoesNotTrackUnlessAsked() {
    #expect(ExploreOptions().trackWrites == false)
  }

  @Test func faultsAreCaughtAsSIGBUSAndSIGSEGV() throws {
    let helper = RuntimeStateTests()
    let (rt, _) = try helper.runtime(snapshots: true)
    var base = rt.saveState()
    #expect(rt.trackWrites(from: &base))
    // One handler for both: the tracking's (the Swift runtime's backtracer
    // may have one of its own for each before tracking starts).
    var segv = sigaction(), bus = sigaction()
    #expect(sigaction(SIGSEGV, nil, &segv) == 0 && sigaction(SIGBUS, nil, &bus) == 0)
    #expect(segv.sa_flags & SA_SIGINFO != 0 && bus.sa_flags & SA_SIGINFO != 0)
    #if os(Linux)
    let a = unsafeBitCast(segv.__sigaction_handler.sa_sigaction, to: UnsafeRawPointer?.self)
    let b = unsafeBitCast(bus.__sigaction_handler.sa_sigaction, to: UnsafeRawPointer?.self)
    #else
    let a = unsafeBitCast(segv.__sigaction_u.__sa_sigaction, to: UnsafeRawPointer?.self)
    let b = unsafeBitCast(bus.__sigaction_u.__sa_sigaction, to: UnsafeRawPointer?.self)
    #endif
    #expect(a != nil && a == b, "SIGBUS is not handled by the tracking's fault handler")
  }

  /// A write the tracking missed (made here by forgetting which pages were
  /// written) leaves a restored state with bytes of the path just taken: the
  /// check after the restore finds it, and the restore fails with a message.
  @Test func aRestoreThatMissedAWriteStopsTheSearch() throws {
    let helper = RuntimeStateTests()
    let (rt, slot) = try helper.runtime(snapshots: true)
    var base = rt.saveState()
    #expect(rt.trackWrites(from: &base))
    rt.trackedRestoreCheckEvery = 1  // as in debug builds; release builds check a sample
    try rt.run(source: "big = {} for i = 1, 20000 do big[i] = 'v' .. i end", chunkName: "=big")
    #expect(try rt.take("launch com.example.notes", on: slot) == .done)
    try rt.restoreState(base, base: base)
    ls_snapshot_track_forget(rt.mainState)
    try rt.run(source: "big = {} for i = 1, 20000 do big[i] = 'w' .. i end", chunkName: "=again")
    #expect {
      try rt.restoreState(base, base: base)
    } throws: { error in
      "\(error)".contains("left bytes of another state")
    }
  }

  /// The search's answer is the same with tracking and without.
  @Test func trackingDoesNotChangeTheAnswer() throws {
    let path = repositoryRoot.appendingPathComponent("Scripts/explore/save_on_terminate.lua").path
    var results: [String] = []
    for track in [false, true] {
      var options = ExploreOptions()
      options.depth = 4
      options.trackWrites = track
      options.runtime.output = { _ in }
      let r = try Explorer(file: path, options: options).run()
      results.append("\(r.states) \(r.distinct) \(r.violation?.steps ?? [])")
    }
    #expect(results[0] == results[1])
  }
}
