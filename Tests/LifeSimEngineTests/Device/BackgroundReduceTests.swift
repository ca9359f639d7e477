import Testing
@testable import LifeSimEngine

/// `BackgroundTime.reduce` as a pure function: a process's time in the
/// background, an event and the facts give the new state and the effects.
struct BackgroundReduceTests {
  let t = SimTime.seconds(100)

  func facts(_ state: AppState = .background, pid: Int32 = 7,
             audioMode: Bool = false, exitsOnSuspend: Bool = false) -> BackgroundFacts {
    BackgroundFacts(now: t, state: state, pid: pid, audioMode: audioMode,
                    exitsOnSuspend: exitsOnSuspend, expirationLead: .seconds(5), launchTime: .seconds(30),
                    taskKillCode: 0x8bad_f00d)
  }

  func part(epoch: UInt32 = 3, deadline: SimTime? = nil, launchEnd: SimTime? = nil, audio: Bool = false,
            tasks: [BackgroundTask] = []) -> BackgroundTime {
    BackgroundTime(epoch: epoch, deadline: deadline, launchEnd: launchEnd, playingAudio: audio, tasks: tasks)
  }

  /// An open task numbered `id`, with an expiration handler when `handler` is given.
  func task(_ id: Int32, handler: Int? = nil) -> BackgroundTask {
    BackgroundTask(id: id, name: "task \(id)", expiration: handler.map(HostToken.init))
  }

  @Test func settlingTakesTheSnapshotAsksTheBudgetThenSuspendsUnlessHeld() {
    var b = part(deadline: .seconds(1))
    #expect(b.reduce(.settle, facts: facts()) == [.snapshot, .askBudget, .then(.idle)])
    #expect(b.epoch == 4 && b.deadline == nil)
    #expect(b.reduce(.idle, facts: facts()) == [.suspend])
    var held = part(tasks: [task(1)])
    #expect(held.reduce(.idle, facts: facts()) == [])
    // Not in the background (its handler moved it on): nothing.
    var f = part()
    #expect(f.reduce(.settle, facts: facts(.inactive)) == [])
    #expect(f == part())
  }

  @Test func settlingStopsAudioWithoutTheModeAndAudioWithTheModeHoldsTheProcess() {
    var noMode = part(audio: true)
    #expect(noMode.reduce(.settle, facts: facts()) == [.snapshot, .askBudget, .then(.idle)])
    #expect(!noMode.playingAudio)
    var held = part(audio: true)
    // No budget under an audio assertion, and no suspension.
    #expect(held.reduce(.settle, facts: facts(audioMode: true)) == [.snapshot, .then(.idle)])
    #expect(held.playingAudio && held.deadline == nil)
    #expect(held.reduce(.idle, facts: facts(audioMode: true)) == [])
  }

  @Test func anAppThatExitsOnSuspendTerminatesInsteadOfASnapshot() {
    var b = part()
    #expect(b.reduce(.settle, facts: facts(exitsOnSuspend: true)) == [.terminateForExit])
    #expect(b == part())
  }

  @Test func theBudgetSchedulesTheExpirationHandlersBeforeTheLimit() {
    var b = part()
    #expect(b.reduce(.budget(.seconds(30)), facts: facts())
            == [.schedule(.taskExpiration, at: t + .seconds(25)), .schedule(.taskDeadline, at: t + .seconds(30))])
    #expect(b.deadline == t + .seconds(30))
    // A budget shorter than the lead: the handlers run at once.
    var short = part()
    #expect(short.reduce(.budget(.seconds(2)), facts: facts())[0] == .schedule(.taskExpiration, at: t))
  }

  @Test func deadlinesOfAnotherPidOrEpochOrOutsideTheBackgroundAreVoid() {
    var b = part(epoch: 3, tasks: [task(1)])
    #expect(b.reduce(.due(.taskDeadline, pid: 7, epoch: 2), facts: facts()) == [])
    #expect(b.reduce(.due(.taskDeadline, pid: 6, epoch: 3), facts: facts()) == [])
    #expect(b.reduce(.due(.taskDeadline, pid: 7, epoch: 3), facts: facts(.active)) == [])
    #expect(b.reduce(.due(.taskDeadline, pid: 7, epoch: 3), facts: facts())
            == [.kill(.backgroundTask, code: 0x8bad_f00d)])
    // No task open at the limit: no kill.
    var none = part(epoch: 3)
    #expect(none.reduce(.due(.taskDeadline, pid: 7, epoch: 3), facts: facts()) == [])
  }

  @Test func audioStoppingInTheBackgroundStartsAFreshBudget() {
    var b = part(epoch: 3, audio: true)
    #expect(b.reduce(.audio(playing: false), facts: facts(audioMode: true))
            == [.askBudget, .schedule(.idleCheck, at: t)])
    #expect(b.epoch == 4 && !b.playingAudio)
    // Starting with the mode: the budget is void and nothing is asked.
    #expect(b.reduce(.audio(playing: true), facts: facts(audioMode: true)) == [])
    #expect(b.epoch == 5 && b.deadline == nil && b.playingAudio)
    // Unchanged, or in the foreground: only the flag.
    #expect(b.reduce(.audio(playing: true), facts: facts(audioMode: true)) == [])
    var fg = part()
    #expect(fg.reduce(.audio(playing: true), facts: facts(.active, audioMode: true)) == [])
    #expect(fg.playingAudio && fg.epoch == 3)
  }

  @Test func aLaunchWindowHoldsTheProcessUntilItEndsWithASnapshot() {
    var b = part()
    #expect(b.reduce(.launchWindowOpens, facts: facts())
            == [.askBudget, .schedule(.backgroundLaunchEnd, at: t + .seconds(30))])
    #expect(b.launchEnd == t + .seconds(30) && b.isHeld(facts()))
    // A budget already running is kept.
    var running = part(deadline: .seconds(120))
    #expect(running.reduce(.launchWindowOpens, facts: facts()) == [.schedule(.backgroundLaunchEnd, at: t + .seconds(30))])
    #expect(running.epoch == 3)
    #expect(b.reduce(.due(.backgroundLaunchEnd, pid: 7, epoch: b.epoch), facts: facts())
            == [.snapshot, .schedule(.idleCheck, at: t)])
    #expect(b.launchEnd == nil)
    // ctx:complete() a second time: nothing.
    #expect(b.reduce(.launchWindowEnds, facts: facts()) == [])
  }

  @Test func leavingTheBackgroundVoidsItsDeadlines() {
    var b = part(epoch: 3, deadline: .seconds(130), launchEnd: .seconds(130))
    #expect(b.reduce(.left, facts: facts(.active)) == [])
    #expect(b == part(epoch: 4))
  }
}
