import LifeSimFuzzSupport
import Testing
@testable import LifeSimEngine

/// The fuzzer draws from the action table: every action of it is drawn and
/// taken, or is in `FuzzAction.notDrawn` with why.
struct FuzzActionTableTests {
  @Test func everyActionIsDrawnByTheFuzzerOrListedAsNotDrawn() {
    var rng = SeededGenerator(seed: 1)
    var drawn = Set<DeviceAction>(), advanced = false
    for _ in 0..<20_000 {
      let (_, drawnAction) = FuzzAction.draw(&rng, apps: [AppID(0), AppID(1)])
      guard let a = drawnAction.action else { advanced = true; continue }
      // A row drawn as itself is taken only if the row can run it.
      if case .row = drawnAction, a.row.run == nil { continue }
      drawn.insert(a)
    }
    for a in DeviceAction.allCases {
      let reason = FuzzAction.notDrawn[a]
      #expect(drawn.contains(a) || reason != nil,
              "\(a) is neither drawn by the fuzzer nor in FuzzAction.notDrawn")
      #expect(!(drawn.contains(a) && reason != nil), "\(a) is drawn by the fuzzer and in FuzzAction.notDrawn")
      #expect(reason?.isEmpty != true, "\(a) is in FuzzAction.notDrawn with no reason")
    }
    #expect(advanced)
  }
}
