import Testing

/// `lifesim help WORD` with a misspelt command suggests the nearest one, as
/// `lifesim WORD` does, instead of printing the overview as if asked for it.
struct HelpSuggestionTests {
  @Test func aMisspeltCommandAfterHelpIsSuggested() throws {
    let r = try lifesim(["help", "explian"])
    #expect(r.status == 2, "\(r.status): \(r.stdout.prefix(200))")
    #expect(r.stderr.contains("lifesim: no command 'explian' (did you mean 'explain'?)"), "\(r.stderr)")
    #expect(r.stdout.isEmpty, "\(r.stdout.prefix(200))")
    let far = try lifesim(["help", "zzzzzz"])
    #expect(far.status == 2 && far.stderr.contains("lifesim: no command 'zzzzzz'; the commands: run,"), "\(far.stderr)")
  }

  @Test func helpOfACommandIsStillItsHelp() throws {
    let r = try lifesim(["help", "run"])
    #expect(r.status == 0 && r.stdout.contains("USAGE: lifesim run"), "\(r.stderr)")
    let plain = try lifesim(["help"])
    #expect(plain.status == 0 && plain.stdout.contains("SUBCOMMANDS:"), "\(plain.stderr)")
  }
}
