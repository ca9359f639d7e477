import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// A screen name with a control character in a message of `explain`: shown
/// escaped wherever the answer names its kind, so no name breaks a line.
struct ExplainShownNamesTests {
  @Test func theMessageOfAnUnexplainedLogNamesAScreenEscaped() throws {
    let log = try LogReader.read(#"""
      [{"category": "app.lifecycle", "data": {"state": "foreground"}},
       {"category": "ui.lifecycle", "data": {"screen": "Home\nView"}},
       {"category": "app.lifecycle", "data": {"state": "background"}}]
      """#)
    var result = ExplainResult()
    result.stop = .maxUnlogged(3)
    result.reached = 2
    result.expected = ["ui.lifecycle Home\nView"]
    let text = ExplainReport(log: log, options: ExplainOptions(), result: result).text
    #expect(!text.contains("Home\nView"), "\(text)")
    #expect(text.contains(#"after ui.lifecycle 'Home\nView' (breadcrumb 2), iOS 17 sends ui.lifecycle 'Home\nView' "#
                          + "before app.lifecycle background"), "\(text)")
    result.reached = 1
    result.expected = []
    let first = ExplainReport(log: log, options: ExplainOptions(), result: result).text
    #expect(first.contains(#"first breadcrumb no sequence reaches: breadcrumb 2: ui.lifecycle 'Home\nView'"#), "\(first)")
    #expect(first.contains(#"leads to ui.lifecycle 'Home\nView'"#), "\(first)")
  }
}
