// What differs between Linux and Darwin, in one place: the C library (Glibc or
// Darwin, which every other file gets by importing this module), and the two
// figures only the kernel knows, a process's peak memory and its executable's
// path. Linux is what is built and tested; the Darwin branch follows Apple's
// documented calls (getrusage, task_info, _NSGetExecutablePath).
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#endif

/// This process's peak resident memory in kB. On Linux, VmHWM from
/// /proc/self/status, which counts this program only: `getrusage`'s
/// `ru_maxrss` would not do, since in a process started by posix_spawn it
/// begins at the parent's own peak. On Darwin, the task's own peak
/// (`task_info`), else `ru_maxrss`, which Darwin gives in bytes.
public func peakResidentKB() -> Int {
  #if os(Linux)
  if let status = fopen("/proc/self/status", "r") {
    defer { fclose(status) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), status) != nil {
      let text = String(cString: line)
      if text.hasPrefix("VmHWM:") { return Int(text.dropFirst(6).filter(\.isNumber)) ?? 0 }
    }
  }
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Int(usage.ru_maxrss)
  #elseif canImport(Darwin)
  var info = task_vm_info_data_t()
  var count = mach_msg_type_number_t(MemoryLayout<task_vm_info_data_t>.size / MemoryLayout<natural_t>.size)
  let kr = withUnsafeMutablePointer(to: &info) {
    $0.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
      task_info(mach_task_self_, task_flavor_t(TASK_VM_INFO), $0, &count)
    }
  }
  if kr == KERN_SUCCESS { return Int(info.resident_size_peak / 1024) }
  var usage = rusage()
  getrusage(RUSAGE_SELF, &usage)
  return Int(usage.ru_maxrss) / 1024
  #else
  return 0
  #endif
}

/// The path of this program's executable, to start it again.
public func executablePath() -> String {
  #if os(Linux)
  return "/proc/self/exe"
  #elseif canImport(Darwin)
  var size: UInt32 = 0
  _ = _NSGetExecutablePath(nil, &size)
  var buffer = [CChar](repeating: 0, count: Int(size) + 1)
  guard _NSGetExecutablePath(&buffer, &size) == 0 else { return CommandLine.arguments[0] }
  return String(cString: buffer)
  #else
  return CommandLine.arguments[0]
  #endif
}
