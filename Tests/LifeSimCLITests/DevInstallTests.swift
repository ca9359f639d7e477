import Foundation
import Testing

/// `./dev.sh install` copies the built binary to a folder on PATH, and never
/// replaces a file there that is not an earlier lifesim. (The test gives it
/// the debug binary through LIFESIM_INSTALL_FROM, so it builds nothing.)
struct DevInstallTests {
  func install(into bin: URL) throws -> Result {
    try runTool(["bash", repoRoot.appendingPathComponent("dev.sh").path, "install"], in: repoRoot,
                env: ["LIFESIM_INSTALL_FROM": binary.path, "LIFESIM_BIN_DIR": bin.path, "PATH": "/usr/bin:/bin"])
  }

  @Test func installsAndKeepsAFileThatIsNotLifesim() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-install-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    let bin = dir.appendingPathComponent("bin"), dest = bin.appendingPathComponent("lifesim")

    let first = try install(into: bin)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("installed \(dest.path) (lifesim "), "\(first.stdout)")
    #expect(first.stdout.contains("is not on PATH"), "\(first.stdout)")
    #expect(FileManager.default.contentsEqual(atPath: dest.path, andPath: binary.path))
    let version = try runTool([dest.path, "--version"])
    #expect(version.status == 0 && !version.stdout.isEmpty)

    let again = try install(into: bin)
    #expect(again.status == 0 && again.stdout.contains("already this lifesim"), "\(again.stdout)\(again.stderr)")

    // Another program of that name stays as it is.
    try "#!/bin/sh\necho mine\n".write(to: dest, atomically: true, encoding: .utf8)
    let refused = try install(into: bin)
    #expect(refused.status == 2, "\(refused.stdout)")
    #expect(refused.stderr.contains("exists and is not lifesim; left as it is"), "\(refused.stderr)")
    #expect(try String(contentsOf: dest, encoding: .utf8) == "#!/bin/sh\necho mine\n")

    // An earlier lifesim is replaced, and the message says so.
    var older = try Data(contentsOf: binary)
    older.append(0)
    try older.write(to: dest)
    let replaced = try install(into: bin)
    #expect(replaced.status == 0 && replaced.stderr.contains("replacing the earlier lifesim"), "\(replaced.stderr)")
    #expect(FileManager.default.contentsEqual(atPath: dest.path, andPath: binary.path))
  }
}
