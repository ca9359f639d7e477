import Foundation
import Testing

/// The cluster examples of docs/experiments.md, run for real: its Slurm
/// job array on a one-node cluster of Debian's slurm-wlm and munge, started by
/// Tests/cluster/slurm-up.sh, and its Kubernetes Indexed Job checked against
/// Kubernetes' schemas by kubernetes-validate (PyPI). The Slurm test changes
/// the machine (/etc/slurm, daemons), so it runs only when asked
/// (`systemTestsEnabled`: `.ci/run` asks); `./dev.sh test` installs slurm-wlm
/// and munge only then.
struct ClusterTests {
  /// Starts the cluster once; the reason when it cannot start here (exit 77).
  /// Never without `systemTestsEnabled`: starting it writes /etc/slurm.
  static let slurm: (up: Bool, reason: String) = {
    guard systemTestsEnabled else {
      print("ClusterTests: the Slurm test is skipped: it \(systemTestsSkipMessage)")
      return (false, systemTestsSkipMessage)
    }
    let r: Result
    do {
      r = try runTool([repoRoot.appendingPathComponent("Tests/cluster/slurm-up.sh").path], timeout: 180)
    } catch { return (false, "cannot run slurm-up.sh: \(error)") }
    if r.status != 0 && r.status != 77 {
      Issue.record("slurm-up.sh failed (\(r.status)): \(r.stderr)")
    }
    if r.status == 77 { print("ClusterTests: Slurm test skipped: \(r.stderr)") }
    return (r.status == 0, r.stderr)
  }()

  /// The block of docs/experiments.md after `marker` (a fenced code block's info string).
  func readmeBlock(_ marker: String, after heading: String) throws -> String {
    let readme = try String(contentsOf: repoRoot.appendingPathComponent("docs/experiments.md"), encoding: .utf8)
    let section = try #require(readme.range(of: heading)).upperBound
    let start = try #require(readme.range(of: "```\(marker)\n", range: section..<readme.endIndex)).upperBound
    let end = try #require(readme.range(of: "```", range: start..<readme.endIndex)).lowerBound
    return String(readme[start..<end])
  }

  @Test(.changesTheMachine,
        .enabled(if: ClusterTests.slurm.up, "Slurm cannot start here (it needs root and slurm-wlm; see the message above)"))
  func theReadmesJobArrayRunsOnARealSlurmCluster() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-slurm-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)  // the job script makes parts/
    defer { try? FileManager.default.removeItem(at: dir) }
    try smallExperiment.write(to: dir.appendingPathComponent("small.lua"), atomically: true, encoding: .utf8)
    // The guide's job script, on a smaller experiment; sbatch's options set
    // the array and the cores, as a user shrinking it for a try would.
    var job = try readmeBlock("bash", after: "## On a cluster")
    #expect(job.contains("#SBATCH --array=") && job.contains("$SLURM_ARRAY_TASK_ID"), "\(job)")
    job = job.replacingOccurrences(of: "coldlaunch.lua --seeds 500", with: "small.lua --seeds 2")
      .replacingOccurrences(of: "coldlaunch-", with: "small-")
    try job.write(to: dir.appendingPathComponent("job.sh"), atomically: true, encoding: .utf8)

    let path = binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    let run = try runTool(["sbatch", "--array=0-3", "--cpus-per-task=1", "--time=10", "--wait", "--chdir=\(dir.path)",
                           "--output=\(dir.path)/slurm-%A_%a.out", "job.sh"], in: dir, env: ["PATH": path])
    let said = run.stdout + run.stderr
    // A task whose runs fail exits 1 (the bad mode fails on seed 2), so sbatch --wait
    // reports the array as failed; the parts are still complete.
    #expect(said.contains("Submitted batch job"), "\(said)")
    let logs = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("slurm-") }
    #expect(logs.count == 4, "\(logs)")
    let log = logs.map { contents(dir.appendingPathComponent($0).path) }.joined()
    for task in 0..<4 { #expect(log.contains("shard \(task)/4 (from SLURM_ARRAY_TASK_ID=\(task))"), "\(log)") }

    let parts = (0..<4).map { dir.appendingPathComponent("parts/small-\($0).csv").path }
    let merged = dir.appendingPathComponent("merged.csv").path, single = dir.appendingPathComponent("single.csv").path
    let m = try lifesim(["merge"] + parts + ["-o", merged])
    #expect(m.status == 0, "\(m.stderr)")
    _ = try lifesim(["batch", "small.lua", "--seeds", "2", "-o", single, "--quiet"], in: dir)  // as the job names it
    #expect(contents(merged) == contents(single), "the merged parts are the single-process file, byte for byte")
    #expect(contents(single).split(separator: "\n").count == 2 + 12)
  }

  @Test func theReadmesKubernetesJobValidates() throws {
    let manifest = try readmeBlock("yaml", after: "A Kubernetes Indexed Job")
    #expect(manifest.contains("completionMode: Indexed"))
    func validate(_ text: String) throws -> (Int32, String) {
      let r = try runTool(["kubernetes-validate", "--strict", try script("job-\(UUID().uuidString).yaml", text)])
      return (r.status, r.stdout + r.stderr)
    }
    let (status, said) = try validate(manifest)
    #expect(status == 0, "kubernetes-validate (pip install kubernetes-validate; ./dev.sh test does): \(said)")
    #expect(said.contains("passed"), "\(said)")
    // The check can fail: a misspelt field is refused.
    let (bad, _) = try validate(manifest.replacingOccurrences(of: "parallelism:", with: "paralelism:"))
    #expect(bad != 0)
  }
}
