import Testing

/// A Lua allocation the memory cap lets through but the system refuses (the
/// address space is limited, ulimit -v) is told as that, with what the
/// script held; only the cap's own refusals name --max-memory as the limit.
struct SystemMemoryRefusalTests {
  static let big = """
    local s = string.rep("x", 150 * 1024 * 1024)
    print(#s)
    """

  @Test(.enabled(if: !binaryIsSanitized, "a sanitizer reserves more address space than the limit"))
  func anAddressSpaceLimitIsNotCalledTheCap() throws {
    let dir = try HostileCLITests.folder("system-refusal")
    let file = dir + "/big.lua"
    try HostileCLITests.write(file, Self.big)
    var told = 0
    // Room to start lifesim (about 116 MB) but not for the 150 MB string,
    // which is under the 256 MB cap.
    for kilobytes in [160_000, 220_000] {
      let r = try HostileCLITests.shell("ulimit -v \(kilobytes); SWIFT_BACKTRACE=enable=no", ["run", file], timeout: 30)
      #expect(r.status == 2, "\(kilobytes) kB: exit \(r.status): \(r.stderr.prefix(300))")
      #expect(!r.stderr.contains("exceeded its memory cap") && !r.stderr.contains("would take the script past"),
              "\(kilobytes) kB: \(r.stderr.prefix(300))")
      if r.stderr.contains("not enough memory: the system refused memory (ulimit -v?): an allocation of 150 MB failed while the script held ")
        && r.stderr.contains(" of its memory cap of 256 MB (--max-memory)") {
        told += 1
      }
    }
    #expect(told == 2)
  }

  @Test func theCapsOwnRefusalStillNamesTheCap() throws {
    let dir = try HostileCLITests.folder("cap-refusal")
    let file = dir + "/big.lua"
    try HostileCLITests.write(file, Self.big)
    let r = try lifesim(["run", file, "--max-memory", "64"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("an allocation of 150 MB would take the script past its memory cap of 64 MB (--max-memory)"), "\(r.stderr)")
    #expect(!r.stderr.contains("system refused"), "\(r.stderr)")
  }
}
