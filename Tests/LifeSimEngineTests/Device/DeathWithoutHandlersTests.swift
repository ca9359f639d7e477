import Testing
@testable import LifeSimEngine

/// A death that leaves no expiration handler to release: `holdsHandlers` is
/// false exactly when `.processEnded` has no effects, so the device may call
/// `ended()` directly instead of running the background rules' loop.
struct DeathWithoutHandlersTests {
  let t = SimTime.seconds(100)

  func facts() -> BackgroundFacts {
    BackgroundFacts(now: t, state: .notRunning, pid: 0, audioMode: true, exitsOnSuspend: false,
                    expirationLead: .seconds(5), launchTime: .seconds(30), taskKillCode: 1)
  }

  func task(_ id: Int32, handler: Int? = nil) -> BackgroundTask {
    BackgroundTask(id: id, name: "task \(id)", expiration: handler.map(HostToken.init))
  }

  @Test func holdsHandlersIsWhetherTheDeathHasEffects() {
    let cases: [[BackgroundTask]] = [[], [task(1)], [task(1), task(2)], [task(1, handler: 10)], [task(1), task(2, handler: 20)]]
    for tasks in cases {
      var b = BackgroundTime(epoch: 2, deadline: t, launchEnd: nil, playingAudio: true, tasks: tasks)
      let holds = b.holdsHandlers
      #expect(holds == tasks.contains { $0.expiration != nil })
      #expect(b.reduce(.processEnded, facts: facts()).isEmpty == !holds)
    }
  }

  @Test func endedWithoutHandlersIsTheWholeRule() {
    var direct = BackgroundTime(epoch: 2, deadline: t, launchEnd: t, playingAudio: true, launchBlocked: true,
                                tasks: [task(1), task(2)])
    var reduced = direct
    #expect(!direct.holdsHandlers)
    #expect(direct.ended().isEmpty)
    #expect(reduced.reduce(.processEnded, facts: facts()).isEmpty)
    #expect(direct == reduced)
    #expect(direct == BackgroundTime(epoch: 3, deadline: nil, launchEnd: nil, playingAudio: false, launchBlocked: true))
  }
}
