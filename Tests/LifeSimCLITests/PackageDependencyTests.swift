import Foundation
import Testing

/// lifesim as a dependency of another package: SwiftPM refuses a dependency on
/// a tagged version whose targets carry unsafe build flags, so this builds a
/// small package that depends on a tagged lifesim (a git repository of this
/// tree's Package.swift and Sources, reached by a file:// URL) and runs a
/// scenario through the engine's Swift API. Everything lives under
/// .build/dependency-test and is reused: the repository gains a commit and a
/// tag only when the tree changed, and the small package keeps its build
/// folder, so a later run rebuilds only what changed. No network: lifesim's
/// own dependencies resolve as they do for lifesim.
struct PackageDependencyTests {
  private let work = repoRoot.appendingPathComponent(".build/dependency-test")

  @Test(.slow, .timeLimit(.minutes(30)))
  func aTaggedLifesimBuildsAndRunsAsADependency() throws {
    let fm = FileManager.default
    let repo = work.appendingPathComponent("lifesim"), consumer = work.appendingPathComponent("consumer")
    try fm.createDirectory(at: repo, withIntermediateDirectories: true)
    func git(_ args: [String]) throws -> Result {
      try runTool(["git", "-c", "user.name=lifesim tests", "-c", "user.email=tests@lifesim.invalid"] + args, in: repo)
    }
    if !fm.fileExists(atPath: repo.appendingPathComponent(".git").path) {
      #expect(try git(["init", "-q"]).status == 0)
    }
    // The tree as it is now, uncommitted changes included.
    for item in ["Package.swift", "Sources"] {
      try? fm.removeItem(at: repo.appendingPathComponent(item))
      try fm.copyItem(at: repoRoot.appendingPathComponent(item), to: repo.appendingPathComponent(item))
    }
    #expect(try git(["add", "-A"]).status == 0)
    let tags = try git(["tag", "--list", "1.0.*"]).stdout.split(separator: "\n")
    if try git(["status", "--porcelain"]).stdout.isEmpty == false || tags.isEmpty {
      let commit = try git(["commit", "-q", "--allow-empty", "-m", "lifesim as it is tested"])
      #expect(commit.status == 0, "\(commit.stderr)")
      let tag = try git(["tag", "1.0.\(tags.count)"])
      #expect(tag.status == 0, "\(tag.stderr)")
    }

    let sources = consumer.appendingPathComponent("Sources/consumer")
    try fm.createDirectory(at: sources, withIntermediateDirectories: true)
    try """
      // swift-tools-version:6.0
      import PackageDescription

      let package = Package(
        name: "consumer",
        dependencies: [.package(url: "\(repo.absoluteString)", from: "1.0.0")],
        targets: [
          .executableTarget(name: "consumer", dependencies: [.product(name: "LifeSimEngine", package: "lifesim")]),
        ]
      )
      """.write(to: consumer.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    try """
      import LifeSimEngine

      let dev = try Device(profile: OSProfile(version: 12), seed: 1)
      let notes = try dev.install(AppConfig(bundle: "com.example.notes"))
      try dev.launch(notes)
      try dev.home()
      print(dev.trace.callbacks(app: notes).joined(separator: "\\n"))
      """.write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
    // The newest tag, whatever an earlier run resolved.
    try? fm.removeItem(at: consumer.appendingPathComponent("Package.resolved"))

    let scratch = work.appendingPathComponent("consumer-build").path
    let build = try runTool(["swift", "build", "--package-path", consumer.path, "--scratch-path", scratch],
                            in: consumer, timeout: 1500)
    #expect(build.status == 0, "\(build.stdout)\n\(build.stderr)")
    #expect(!(build.stdout + build.stderr).contains("unsafe build flags"))
    let run = try runTool([scratch + "/debug/consumer"], in: consumer)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == """
      application:willFinishLaunchingWithOptions:
      application:didFinishLaunchingWithOptions:
      applicationDidBecomeActive:
      applicationWillResignActive:
      applicationDidEnterBackground:

      """, "\(run.stdout)")
  }
}
