import Foundation
import Testing
@testable import LifeSimExplain

/// Reading a log is linear in its size and costs a few passes over its
/// bytes. Timed only as ratios: a log eight times the size against the
/// small one (a quadratic reader takes sixty-four times as long, a linear
/// one eight), and a reading against a fixed pass over the same bytes.
struct LogReadingScalingTests {
  static func seconds(_ body: () throws -> Void) rethrows -> Double {
    let d = try ContinuousClock().measure(body)
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
  }

  /// How much longer `big` takes to read than `small`: each the best of
  /// five, taken in turns, so that other tests running meanwhile weigh on both.
  static func ratio(_ small: String, _ big: String) throws -> Double {
    var a = Double.infinity, b = Double.infinity
    for _ in 0..<5 {
      a = min(a, try seconds { _ = try LogReader.read(small) })
      b = min(b, try seconds { _ = try LogReader.read(big) })
    }
    return b / a
  }

  /// `count` breadcrumbs, each naming a screen of its own.
  static func screens(_ count: Int) -> String {
    "[" + (0..<count).map { #"{"category":"ui.lifecycle","data":{"screen":"Screen\#($0)ViewController"},"timestamp":\#(1_700_000_000 + $0)}"# }
      .joined(separator: ",\n") + "]"
  }

  /// `count` NSLog lines, one in ten a lifecycle line, the others a program's own output.
  static func noisy(_ count: Int) -> String {
    (0..<count).map { i in
      let s = i % 60, m = i / 60 % 60, h = 10 + i / 3600
      let stamp = "2024-03-01 \(h):\(m < 10 ? "0" : "")\(m):\(s < 10 ? "0" : "")\(s).000 MyApp[123:456] "
      if i % 10 == 0 { return stamp + (i % 20 == 0 ? "UIApplicationWillResignActiveNotification" : "UIApplicationDidBecomeActiveNotification") }
      return stamp + "[network] GET https://example.com/api/v1/items?page=\(i) status=200 bytes=1234 applicationState=ok"
    }.joined(separator: "\n") + "\n"
  }

  @Test func aLogOfEightTimesTheScreensTakesAboutEightTimesAsLong() throws {
    let r = try Self.ratio(Self.screens(1_000), Self.screens(8_000))
    #expect(r < 24, "ratio \(r)")
  }

  @Test func aLogOfEightTimesTheLinesOrOneEightTimesAsWideTakesAboutEightTimesAsLong() throws {
    let lines = try Self.ratio(Self.noisy(600), Self.noisy(4_800))
    #expect(lines < 24, "ratio \(lines)")
    let word = "applicationStateDidChange "
    let wide = try Self.ratio(String(repeating: word, count: 1_000) + "applicationDidBecomeActive\n",
                              String(repeating: word, count: 8_000) + "applicationDidBecomeActive\n")
    #expect(wide < 24, "ratio \(wide)")
  }

  /// The fixed pass: the content split into lines as Swift's `Character`
  /// reads them, each line's characters counted (what a reader that goes
  /// over the text once in Swift's own way costs).
  @Test func readingATextLogCostsAFewPassesOverItsBytes() throws {
    let log = Self.noisy(3_000)
    var characters = 0
    var fixed = Double.infinity, reading = Double.infinity
    for _ in 0..<5 {
      fixed = min(fixed, Self.seconds { for line in log.split(separator: "\n") { characters &+= line.count } })
      reading = min(reading, try Self.seconds { _ = try LogReader.read(log) })
    }
    #expect(characters > 0)
    // About six times in a debug build; a reader that goes over each line
    // by characters, or tries each name over the whole line, is fifty.
    #expect(reading < fixed * 15, "reading \(reading) s, the fixed pass \(fixed) s")
  }
}
