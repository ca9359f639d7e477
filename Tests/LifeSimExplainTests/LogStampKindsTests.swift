import Testing
@testable import LifeSimExplain

/// A log whose timestamps are of two kinds, a date and time on some lines
/// and a time of day alone on others, has no common clock: it is read
/// without times, and the note names the first line of the other kind,
/// never a wait of 54 years or a midnight that did not pass.
struct LogStampKindsTests {
  static let timeOfDayFirst = """
    10:00:00.000 application(_:didFinishLaunchingWithOptions:)
    2024-03-01 10:00:00.100 applicationDidBecomeActive(_:)
    2024-03-01 10:00:05.000 applicationWillResignActive(_:)

    """

  @Test func aTimeOfDayThenDatedLinesIsReadWithoutTimes() throws {
    let log = try LogReader.read(Self.timeOfDayFirst)
    #expect(log.events.count == 3)
    #expect(log.events.allSatisfy { $0.time == nil })
    #expect(!log.timesWrapDaily)
    #expect(log.notes == ["line 2: its timestamp has a date, and that of line 1 is a time of day alone: "
                          + "the log is read without times, and its waits are free"])
  }

  @Test func datedLinesThenATimeOfDaySayNoMidnight() throws {
    let log = try LogReader.read("""
      2024-03-01 10:00:00.000 application(_:didFinishLaunchingWithOptions:)
      2024-03-01 10:00:00.100 applicationDidBecomeActive(_:)
      09:00:05.000 applicationWillResignActive(_:)

      """)
    #expect(log.events.allSatisfy { $0.time == nil })
    #expect(log.notes == ["line 3: its timestamp is a time of day alone, and that of line 1 has a date: "
                          + "the log is read without times, and its waits are free"])
    #expect(!log.notes.contains { $0.contains("midnight") })
  }

  @Test func anISOLineThenTimesOfDayIsReadWithoutTimes() throws {
    let log = try LogReader.read("""
      2024-03-01T10:00:00.000Z application(_:didFinishLaunchingWithOptions:)
      10:00:00.100 applicationDidBecomeActive(_:)
      10:00:05.000 applicationWillResignActive(_:)

      """)
    #expect(log.events.count == 3 && log.events.allSatisfy { $0.time == nil })
    #expect(log.notes.count == 1 && log.notes[0].hasPrefix("line 2: its timestamp is a time of day alone"))
  }

  /// NSLog and ISO 8601 stamps both carry a date: one kind, read with times.
  @Test func nslogAndISOStampsAreOneKind() throws {
    let log = try LogReader.read("""
      2024-03-01 10:00:00.000 applicationDidBecomeActive(_:)
      2024-03-01T10:00:05.000Z applicationWillResignActive(_:)

      """)
    #expect(log.events.allSatisfy { $0.time != nil })
    #expect(log.notes.isEmpty)
  }

  @Test func breadcrumbsWithBothKindsAreReadWithoutTimes() throws {
    let log = try LogReader.read("""
      [{"category":"app.lifecycle","data":{"state":"background"},"timestamp":"10:00:00"},
       {"category":"app.lifecycle","data":{"state":"foreground"},"timestamp":1709287200.5}]
      """)
    #expect(log.events.count == 2 && log.events.allSatisfy { $0.time == nil })
    #expect(log.notes.contains { $0.hasPrefix("breadcrumb 2: its timestamp has a date, and that of breadcrumb 1 is a time of day alone") })
  }
}
