import Foundation
import Testing

/// Scripts as files: what the loader does with their first bytes.
struct SandboxHardeningCLITests {
  /// Writes raw bytes as a temporary script and returns its path.
  private func scriptBytes(_ name: String, _ bytes: [UInt8]) throws -> String {
    let path = try script(name, "")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// A UTF-8 byte-order mark is skipped, as the lua interpreter skips it, and
  /// the lines keep their numbers.
  @Test func byteOrderMarkIsSkippedAndLinesKeepTheirNumbers() throws {
    let path = try scriptBytes("bom_error.lua", [0xEF, 0xBB, 0xBF] + Array("local x = 1\n\nerror('boom ' .. x)\n".utf8))
    let r = try lifesim(["run", path])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("bom_error.lua:3: boom 1"), "\(r.stderr)")
    let ok = try scriptBytes("bom_ok.lua", [0xEF, 0xBB, 0xBF] + Array("print('fine')\n".utf8))
    let fine = try lifesim(["run", ok])
    #expect(fine.status == 0, "\(fine.stderr)")
    #expect(fine.stdout.contains("fine"))
  }

  /// A script file that is bytecode is refused with the file's name.
  @Test func binaryScriptFileIsNamed() throws {
    let path = try scriptBytes("compiled.lua", Array("\u{1B}LuaT\0\u{19}\u{93}\r\n\u{1A}\n\u{04}\u{08}\u{08}xV".utf8))
    let r = try lifesim(["run", path])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("\(path): attempt to load a binary chunk (mode is 't')"), "\(r.stderr)")
  }
}
