import Testing

/// `lifesim.replay` reads its steps raw: a step that is no string is an
/// error naming it, not the silent end of the list.
struct ReplayStepTypeTests {
  @Test(arguments: ["42", "{}", "true"])
  func aStepThatIsNoStringIsRefused(step: String) throws {
    let (_, _, failure) = try runScript("""
      local dev = lifesim.device{ ios = 17 }
      local a = dev:install{ bundle = "com.x" }
      local ok, err = pcall(lifesim.replay, { "launch com.x", \(step), "home" })
      assert(not ok, "accepted")
      assert(err:find("bad step #2 (string expected", 1, true), err)
      -- Refused before any step: nothing ran.
      assert(a.state == "notRunning", a.state)
      """)
    #expect(failure == nil, "\(failure?.report ?? "")")
  }
}
