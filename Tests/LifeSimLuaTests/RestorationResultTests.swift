import Testing

/// What a `stateRestorationActivityForScene:` handler returns: a table is
/// the activity, nil or false is none, anything else is refused with a
/// message naming the handler and what it may return.
struct RestorationResultTests {
  private func run(returning value: String) throws -> String? {
    let (_, _, f) = try runScript("""
      local dev = lifesim.device{ ios = 17, model = "iPhone 15" }
      local app = dev:install{ bundle = "com.example.notes" }
      app:on("stateRestorationActivityForScene:", function(ctx)
        return \(value)
      end)
      dev:launch(app)
      dev:home()
      """)
    return f.map { $0.message }
  }

  @Test(arguments: [("function() end", "a function"), ("coroutine.create(function() end)", "a thread"),
                    ("\"note-1\"", "a string"), ("42", "42"), ("ctx.app", "an app")])
  func aValueThatStandsForNoActivityIsRefused(value: String, shown: String) throws {
    let m = try run(returning: value)
    #expect(m?.contains("test:3: the handler of stateRestorationActivityForScene: returned \(shown); it returns a table") == true,
            "\(value): \(m ?? "accepted")")
    #expect(m?.contains("or nil or false for no activity") == true, "\(m ?? "accepted")")
  }

  @Test(arguments: ["{ note = 1 }", "nil", "false"])
  func aTableOrNothingIsTaken(value: String) throws {
    let m = try run(returning: value)
    #expect(m == nil, "\(value): \(m ?? "")")
  }
}
