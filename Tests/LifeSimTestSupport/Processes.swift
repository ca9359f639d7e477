// Running the built `lifesim` and other programs from tests, and the files
// they read and write.
import Foundation

/// The built `lifesim` binary, beside the test bundle (also under sanitizers).
public let binary: URL = {
  let bundleDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  return bundleDir.appendingPathComponent("lifesim")
}()

/// What a program run from a test did.
public struct Result {
  public var status: Int32
  public var stdout: String
  public var stderr: String
  public init(status: Int32, stdout: String, stderr: String) {
    self.status = status
    self.stdout = stdout
    self.stderr = stderr
  }
}

/// Runs `lifesim ARGS` in the repository root, with extra environment variables, and waits for it.
public func lifesim(_ args: [String], env: [String: String] = [:], in directory: URL? = nil) throws -> Result {
  try runTool([binary.path] + args, in: directory ?? repoRoot, env: env)
}

/// Runs another program (through env, so PATH finds it) and waits for it, at
/// most `timeout` seconds (then it is killed and the result says so).
///
/// Not Foundation's `Process`: on this toolchain its `waitUntilExit()` can miss
/// the child's exit for good when the child starts daemons (the cluster test's
/// slurm-up.sh hung CI that way). Here the child's output goes to files, so a
/// daemon that keeps a descriptor cannot block a read, and `waitpid` on the
/// child's own pid cannot miss its exit.
public func runTool(_ arguments: [String], in directory: URL? = nil, env: [String: String] = [:],
             timeout: Double = 600) throws -> Result {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-cli-tests")
  try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  let outPath = dir.appendingPathComponent("out-\(UUID().uuidString)").path
  let errPath = dir.appendingPathComponent("err-\(UUID().uuidString)").path
  defer { unlink(outPath); unlink(errPath) }

  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

  let environment = ProcessInfo.processInfo.environment.merging(env) { $1 }.map { "\($0)=\($1)" }
  // sh changes to the folder (Glibc's addchdir action is not visible to Swift).
  let command = ["/bin/sh", "-c", #"cd "$0" && exec /usr/bin/env "$@""#,
                 directory?.path ?? FileManager.default.currentDirectoryPath] + arguments
  let argv = command.map { strdup($0) } + [nil]
  let envp = environment.map { strdup($0) } + [nil]
  defer { (argv + envp).forEach { free($0) } }
  var pid: pid_t = 0
  let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
  guard spawned == 0 else {
    throw NSError(domain: NSPOSIXErrorDomain, code: Int(spawned),
                  userInfo: [NSLocalizedDescriptionKey: "cannot start \(arguments.first ?? "")"])
  }
  var status: Int32 = 0
  let deadline = Date().addingTimeInterval(timeout)
  var timedOut = false
  while true {
    let r = waitpid(pid, &status, WNOHANG)
    if r == pid { break }
    if r < 0 && errno != EINTR {
      // Its status is lost (another reaper took it): no result can be trusted.
      throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno),
                    userInfo: [NSLocalizedDescriptionKey: "cannot wait for \(arguments.first ?? ""): \(String(cString: strerror(errno)))"])
    }
    if !timedOut && Date() > deadline {
      timedOut = true
      kill(pid, SIGKILL)
    }
    usleep(2_000)
  }
  let exited = (status & 0x7f) == 0
  let code: Int32 = exited ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  var stderr = contents(errPath)
  if timedOut { stderr += "\n[runTool: killed after \(timeout) s: \(arguments.joined(separator: " "))]" }
  return Result(status: code, stdout: contents(outPath), stderr: stderr)
}

/// Writes a temporary script and returns its path.
public func script(_ name: String, _ source: String) throws -> String {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-cli-tests")
  try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  let url = dir.appendingPathComponent(name)
  try source.write(to: url, atomically: true, encoding: .utf8)
  return url.path
}

public func tempPath(_ name: String) -> String {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-batch-tests-\(getpid())")
  try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  return dir.appendingPathComponent(name).path
}

/// A file's text (read with stdio: Foundation's reader leaks under LeakSanitizer
/// when the file changes while it reads).
public func contents(_ path: String) -> String {
  guard let f = fopen(path, "rb") else { return "<missing \(path)>" }
  defer { fclose(f) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while true {
    let n = fread(&buffer, 1, buffer.count, f)
    bytes += buffer[0..<n]
    if n < buffer.count { break }
  }
  return String(decoding: bytes, as: UTF8.self)
}
