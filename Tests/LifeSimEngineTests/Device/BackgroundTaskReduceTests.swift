import Testing
@testable import LifeSimEngine

/// Background tasks through `BackgroundTime`, with no device (§0
/// "Suspension", §3.4): a task holds the process, its end releases its
/// handler and lets suspension come, and expiration takes the tasks open when
/// the budget ran out one at a time, each recorded and its handler run.
struct BackgroundTaskReduceTests {
  let t = SimTime.seconds(100)

  func facts(_ state: AppState = .background, pid: Int32 = 7) -> BackgroundFacts {
    BackgroundFacts(now: t, state: state, pid: pid, audioMode: false, exitsOnSuspend: false,
                    expirationLead: .seconds(5), launchTime: .seconds(30), taskKillCode: 0x8bad_f00d)
  }

  func task(_ id: Int32, handler: Int? = nil) -> BackgroundTask {
    BackgroundTask(id: id, name: "task \(id)", expiration: handler.map(HostToken.init))
  }

  func part(_ tasks: [BackgroundTask] = []) -> BackgroundTime {
    BackgroundTime(epoch: 3, deadline: t + .seconds(5), launchEnd: nil, playingAudio: false, tasks: tasks)
  }

  @Test func aTaskBegunHoldsTheProcessAndIsStillOpenAtTheLimitKills() {
    var b = part()
    #expect(b.reduce(.idle, facts: facts()) == [.suspend])
    b.begin(task(1))
    #expect(b.tasks.map(\.id) == [1] && b.task(1) != nil && b.isHeld(facts()))
    #expect(b.reduce(.idle, facts: facts()) == [])
    #expect(b.reduce(.due(.taskDeadline, pid: 7, epoch: 3), facts: facts()) == [.kill(.backgroundTask, code: 0x8bad_f00d)])
  }

  @Test func endingATaskReleasesItsHandlerThenAnIdleCheckInTheBackground() {
    var b = part([task(1, handler: 10), task(2)])
    #expect(b.reduce(.taskEnded(1), facts: facts()) == [.release(HostToken(10)), .schedule(.idleCheck, at: t)])
    #expect(b.tasks.map(\.id) == [2] && b.task(1) == nil)
    // No handler, in the foreground: nothing to release, nothing to suspend.
    #expect(b.reduce(.taskEnded(2), facts: facts(.active)) == [])
    #expect(b.tasks.isEmpty)
  }

  @Test func endingATaskThatIsNotOpenDoesNothing() {
    var b = part([task(1, handler: 10)])
    #expect(b.reduce(.taskEnded(5), facts: facts()) == [])
    #expect(b == part([task(1, handler: 10)]))
  }

  @Test func expirationTakesEachOpenTaskInTurnThenTheIdleCheck() {
    var expired = task(3, handler: 30)
    expired.expired = true
    var b = part([task(1, handler: 10), task(2), expired])
    // §3.4: each task is marked and recorded, then its handler runs.
    #expect(b.reduce(.due(.taskExpiration, pid: 7, epoch: 3), facts: facts())
            == [.recordExpiration(task: 1), .runExpirationHandler(HostToken(10), task: 1), .then(.expire(pid: 7, through: 3))])
    #expect(b.tasks.map(\.expired) == [true, false, true])
    // No handler: only the record.
    #expect(b.reduce(.expire(pid: 7, through: 3), facts: facts()) == [.recordExpiration(task: 2), .then(.expire(pid: 7, through: 3))])
    #expect(b.tasks.map(\.expired) == [true, true, true])
    // A task that expired before gets no second handler call: the round ends in the check.
    #expect(b.reduce(.expire(pid: 7, through: 3), facts: facts()) == [.schedule(.idleCheck, at: t)])
    // The tasks stay open until the app ends them, or the limit.
    #expect(b.tasks.count == 3)
  }

  @Test func aTaskBegunByAHandlerWaitsForTheNextRound() {
    var b = part([task(1, handler: 10)])
    _ = b.reduce(.due(.taskExpiration, pid: 7, epoch: 3), facts: facts())
    b.begin(task(2, handler: 20))  // from task 1's handler
    #expect(b.reduce(.expire(pid: 7, through: 1), facts: facts()) == [.schedule(.idleCheck, at: t)])
    #expect(b.task(2)?.expired == false)
  }

  @Test func aTaskEndedByAnEarlierHandlerIsSkipped() {
    var b = part([task(1, handler: 10), task(2, handler: 20), task(3, handler: 30)])
    _ = b.reduce(.due(.taskExpiration, pid: 7, epoch: 3), facts: facts())
    _ = b.reduce(.taskEnded(2), facts: facts())  // task 1's handler ends task 2
    #expect(b.reduce(.expire(pid: 7, through: 3), facts: facts())
            == [.recordExpiration(task: 3), .runExpirationHandler(HostToken(30), task: 3), .then(.expire(pid: 7, through: 3))])
  }

  @Test func aHandlerThatGotItsProcessKilledEndsTheRound() {
    var b = part([task(1, handler: 10), task(2, handler: 20)])
    _ = b.reduce(.due(.taskExpiration, pid: 7, epoch: 3), facts: facts())
    // Killed in task 1's handler and launched again: another pid.
    #expect(b.reduce(.expire(pid: 7, through: 2), facts: facts(pid: 8)) == [])
    #expect(b.task(2)?.expired == false)
    // Out of the background by the end of the round: no idle check.
    #expect(b.reduce(.expire(pid: 7, through: 0), facts: facts(.active)) == [])
  }
}
