import CLua
import CLuaShim

/// Where a script's function was written: its chunk's short name (the
/// script's path) and the line its definition starts on (0 for a C function
/// or a main chunk). One reading of `lua_getinfo` for every place that names a
/// function: notes at the end of a run, explore's fingerprint and messages,
/// and batch errors.
extension LuaRuntime {
  /// Hands `body` the origin of the function on top of the stack, which it
  /// pops, as the raw bytes of its short source and its first line; nil (and
  /// nothing popped) when the value on top is no function.
  func withFunctionOrigin<R>(_ body: (UnsafeRawBufferPointer, Int) -> R) -> R? {
    guard lua_type(L, -1) == LUA_TFUNCTION else { return nil }
    var ar = lua_Debug()
    guard lua_getinfo(L, ">S", &ar) != 0 else { return nil }
    let line = Int(ar.linedefined)
    return withUnsafeBytes(of: &ar.short_src) { src in
      body(UnsafeRawBufferPointer(rebasing: src.prefix { $0 != 0 }), line)
    }
  }

  /// `path:line` of the function on top of the stack (popped), or nil when
  /// it is no function or has no line (a C function).
  func functionPlace() -> String? {
    withFunctionOrigin { src, line in line > 0 ? "\(String(decoding: src, as: UTF8.self)):\(line)" : nil } ?? nil
  }
}
