import Foundation
import Testing
@testable import LifeSimLua

/// "Did you mean" suggestions cost a bounded amount of work whatever a
/// script passes: a multi-megabyte unknown name, or very many names.
struct SuggestionBoundTests {
  /// The names an unknown API field is compared with, about as many as the
  /// API has.
  static let names = (0..<60).map { "some_api_function_\($0)" } + ["launch", "background_fetch", "memory_warning"]

  @Test func aHugeUnknownNameIsNotCompared() {
    let huge = String(repeating: "x", count: 3 << 20)
    let start = ContinuousClock.now
    let said = suggestion(for: huge, in: Self.names)
    let elapsed = ContinuousClock.now - start
    #expect(said == "")
    // Comparing 3 MB with each name costs minutes; skipping it, microseconds.
    #expect(elapsed < .milliseconds(500), "\(elapsed)")
  }

  @Test func hugeCandidatesAndManyOfThemAreBounded() {
    let huge = (0..<8).map { String(repeating: "y", count: 1 << 20) + "\($0)" }
    let many = huge + (0..<100_000).map { "name\($0)" }
    let start = ContinuousClock.now
    _ = suggestion(for: "nam", in: many)
    let elapsed = ContinuousClock.now - start
    #expect(elapsed < .seconds(2), "\(elapsed)")
  }

  @Test func typosStillGetTheirSuggestion() {
    #expect(suggestion(for: "lanch", in: Self.names) == " (did you mean 'launch'?)")
    #expect(suggestion(for: "memory_warnin", in: Self.names) == " (did you mean 'memory_warning'?)")
    #expect(suggestion(for: "Launch", in: Self.names) == " (did you mean 'launch'?)")
    #expect(suggestion(for: "zzzzzzzzzz", in: Self.names) == "")
  }
}
