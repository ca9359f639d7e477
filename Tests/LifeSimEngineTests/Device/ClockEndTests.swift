import Testing
@testable import LifeSimEngine

/// `dev:run` stopped by the end of the clock (not by --max-time) says so.
struct ClockEndTests {
  @Test func aRunStoppedByTheClocksEndNamesItNotMaxTime() throws {
    let dev = Device(profile: try OSProfile(version: 17), seed: 1)
    let century = try #require(SimTime(seconds: 3.1e9))
    while dev.now + century <= .clockEnd { try dev.advance(by: century) }
    try dev.advance(by: SimTime(microseconds: SimTime.clockEnd.microseconds - dev.now.microseconds - 1_000_000))
    // An event past the end (the engine's own timers are not bounded by it).
    dev.kernel.schedule(.script(HostToken(1)), at: SimTime(microseconds: SimTime.clockEnd.microseconds + 1))
    let start = dev.now
    #expect(throws: SimulationError.clockRange(.run, now: start, span: dev.horizon)) { try dev.run() }
  }

  @Test func aRunStoppedByMaxTimeStillNamesIt() throws {
    let dev = Device(profile: try OSProfile(version: 17), seed: 1)
    try dev.schedule(HostToken(1), after: dev.horizon + .seconds(5))
    #expect(throws: SimulationError.horizonReached(dev.horizon)) { try dev.run() }
  }
}
