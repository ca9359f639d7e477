import Testing
@testable import LifeSimExplain

/// A leading timestamp shaped like one the reader takes but that no clock
/// shows is refused with its line and its text, never read as a wrong wait
/// or as no time; the edges a clock does show are read.
struct TimestampValidityTests {
  func refusal(_ log: String) -> String? {
    do {
      _ = try LogReader.read(log)
      return nil
    } catch {
      return "\(error)"
    }
  }

  static let impossible: [(String, String)] = [
    ("2024-13-45 10:00:00.000", "there is no month 13"),
    ("2024-00-10 10:00:00.000", "there is no month 0"),
    ("2024-04-31 10:00:00.000", "April has 30 days"),
    ("2023-02-29 10:00:00.000", "February 2023 has 28 days"),
    ("1900-02-29 10:00:00.000", "February 1900 has 28 days"),
    ("2024-03-00 10:00:00.000", "there is no day 0"),
    ("25:61:61.000", "there is no hour 25"),
    ("10:61:00.000", "there is no minute 61"),
    ("10:00:61.000", "there is no second 61 (60 is a leap second)"),
    ("24:00:00.001", "24:00:00 is the end of a day, and no time comes after it"),
    ("24:30:00.000", "24:00:00 is the end of a day, and no time comes after it"),
    ("2024-13-01T10:00:00.000Z", "there is no month 13"),
    ("2024-03-01T10:00:00.000+25:00", "there is no offset from UTC of +25:00"),
  ]

  @Test(arguments: impossible)
  func anImpossibleStampIsRefusedWithItsLineAndText(stamp: String, why: String) {
    let message = refusal("applicationDidBecomeActive:\n\(stamp) applicationWillResignActive:\n")
    #expect(message == "line 2: timestamp '\(stamp)' is not a time: \(why)")
  }

  @Test func aStampOnALineThatIsNoLifecycleLineIsNotRead() throws {
    let log = try LogReader.read("2024-13-45 10:00:00.000 something else\napplicationDidBecomeActive:\n")
    #expect(log.events.count == 1 && log.ignored == 1)
  }

  static func day(_ y: Int64, _ m: Int64, _ d: Int64) -> Int64 { Timestamp.daysFromCivil(y, m, d) * 86_400_000_000 }

  @Test func leapDaysTheEndOfADayAndALeapSecondAreTimes() throws {
    let log = try LogReader.read("""
      2024-02-29 23:59:59.000 applicationDidBecomeActive:
      2024-02-29 24:00:00.000 applicationWillResignActive:
      2024-03-01 00:00:00.500 applicationDidBecomeActive:
      """)
    #expect(log.events.map(\.time) == [Self.day(2024, 2, 29) + 86_399_000_000, Self.day(2024, 3, 1), Self.day(2024, 3, 1) + 500_000])
    #expect(log.notes.isEmpty)
    let leap = try LogReader.read("""
      2016-12-31 23:59:59.000 applicationDidBecomeActive:
      2016-12-31 23:59:60.500 applicationWillResignActive:
      2000-02-29 10:00:00.000 applicationDidBecomeActive:
      """)
    #expect(leap.events.map(\.time) == [Self.day(2016, 12, 31) + 86_399_000_000, Self.day(2017, 1, 1) + 500_000,
                                         Self.day(2000, 2, 29) + 36_000_000_000])
  }

  @Test(arguments: [#""garbage""#, "null", "{}", "[1]", #""2024-13-01T10:00:00Z""#, #""2024-02-30T10:00:00Z""#])
  func aBreadcrumbTimestampThatIsNoTimeIsRefused(json: String) {
    let message = refusal("""
      [{"category":"app.lifecycle","data":{"state":"foreground"},"timestamp":"2024-03-01T10:00:00Z"},
       {"category":"app.lifecycle","data":{"state":"background"},"timestamp":\(json)}]
      """)
    #expect(message?.hasPrefix("breadcrumb 2: timestamp ") == true && message?.contains(" is not a time: ") == true,
            "\(message ?? "read")")
  }

  @Test func aLogWithTimesOnSomeLinesOnlySaysItReadsThemPast() throws {
    let log = try LogReader.read("10:00:00.000 applicationDidBecomeActive:\napplicationWillResignActive:\n")
    #expect(log.events.allSatisfy { $0.time == nil })
    #expect(log.notes == ["1 of the 2 lifecycle lines has no timestamp (the first: line 2): "
                          + "the log is read without times, and its waits are free"])
    let none = try LogReader.read("applicationDidBecomeActive:\napplicationWillResignActive:\n")
    #expect(none.notes.isEmpty)
  }
}
