import Testing

/// The bridge quotes a name a script gave as every layer does (`shownName`):
/// escaped, so that the message stays one line.
struct ShownNameBridgeTests {
  @Test func anUnknownBundleWithANewlineIsShownEscaped() throws {
    let (_, _, f) = try runScript("""
      local dev = lifesim.device{ ios = 17 }
      dev:install{ bundle = "com.example.notes" }
      dev:launch("com.example\\nnotes")
      """)
    let m = f?.message ?? "accepted"
    #expect(m.contains(#"no app 'com.example\nnotes' is installed"#), "\(m)")
    #expect(!m.contains("com.example\nnotes"), "\(m)")
  }
}
