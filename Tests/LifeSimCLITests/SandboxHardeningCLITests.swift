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

  /// A module that is bytecode is refused with its file's name, at the require line.
  @Test func binaryModuleIsNamed() throws {
    let module = try scriptBytes("hardening_binmod.lua", Array("\u{1B}LuaT\0\u{19}\u{93}\r\n\u{1A}\n".utf8))
    let main = try script("hardening_requires_binmod.lua", "local x = 1\nrequire('hardening_binmod')\n")
    let r = try lifesim(["run", main])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("hardening_requires_binmod.lua:2: \(module): attempt to load a binary chunk"), "\(r.stderr)")
  }

  /// A module that starts with a byte-order mark loads, and keeps its line numbers.
  @Test func moduleWithByteOrderMarkLoads() throws {
    _ = try scriptBytes("hardening_bommod.lua", [0xEF, 0xBB, 0xBF] + Array("local M = {}\n\nerror('in module')\nreturn M\n".utf8))
    let main = try script("hardening_requires_bommod.lua", "require('hardening_bommod')\n")
    let r = try lifesim(["run", main])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("hardening_bommod.lua:3: in module"), "\(r.stderr)")
  }
}
