import Testing
import LifeSimEngine
@testable import LifeSimLua

/// Tab inside a string completes the name and closes the string with the
/// quote it opened with; with several candidates each carries the quote, so
/// the common prefix typed stops before it.
struct CompletionQuoteTests {
  @Test func aCompletedStringIsClosed() throws {
    let (rt, _, failure) = try runScript("""
      dev = lifesim.device{ ios = 17 }
      app = dev:install{ bundle = "com.example.notes" }
      """)
    #expect(failure == nil)
    #expect(rt.completions(for: "com.ex", before: #"dev:app(""#) == [#"com.example.notes""#])
    #expect(rt.completions(for: "sceneDidBecome", before: "app:on('") == ["sceneDidBecomeActive:'"])
    #expect(rt.completions(for: "UIApplicationDidB", before: #"app:observe(""#) == [#"UIApplicationDidBecomeActiveNotification""#])
    _ = rt.evaluate(#"dev:install{ bundle = "com.example.mail" }"#)
    #expect(rt.completions(for: "com.ex", before: #"dev:app(""#) == [#"com.example.mail""#, #"com.example.notes""#])
    // Outside a string nothing is quoted.
    #expect(rt.completions(for: "dev:la", before: "") == ["dev:launch"])
  }
}
