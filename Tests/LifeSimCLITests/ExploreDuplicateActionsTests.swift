import Testing

/// `lifesim explore --actions` naming a step twice searches it once, and
/// says so on standard error.
struct ExploreDuplicateActionsTests {
  @Test func aStepNamedTwiceIsSearchedOnce() throws {
    let file = repoRoot.appendingPathComponent("Scripts/explore/correct_app.lua").path
    let r = try lifesim(["explore", file, "--actions", "home, launch com.example.notes,home,home", "--depth", "2", "--quiet"])
    #expect(r.stdout.contains("alphabet: home, launch com.example.notes\n"), "\(r.stdout)")
    #expect(r.stderr.contains("lifesim explore: --actions names 'home' more than once; the search takes it once"), "\(r.stderr)")
    let once = try lifesim(["explore", file, "--actions", "home,launch com.example.notes", "--depth", "2", "--quiet"])
    // The same search: the same lines, but for the time it took.
    func lines(_ s: String) -> [Substring] { s.split(separator: "\n").filter { !$0.hasPrefix("lifesim explore:") } }
    #expect(lines(once.stdout) == lines(r.stdout))
    #expect(once.status == r.status && !once.stderr.contains("more than once"), "\(once.stderr)")
  }
}
