/// A device model with its RAM and per-process memory limit (reference §4).
///
/// The figures are the community-measured foreground crash limits of reference
/// §4 (Stack Overflow answer 15200855): indicative, as §8.9 says, not Apple's.
///
///     let m = DeviceModel.named("iPhone 11")!   // 3844 MB RAM, 2068 MB per process
public struct DeviceModel: Sendable, Equatable {
  public var name: String
  /// Physical memory, in MB.
  public var ramMB: Int
  /// The per-process limit at which the foreground app is killed, in MB.
  public var perProcessLimitMB: Int

  /// The per-process limit when no model is given: 50% of RAM (reference §0 "Jetsam").
  public static func defaultLimitMB(ramMB: Int) -> Int { ramMB / 2 }

  /// Finds a model by name, ignoring case, spaces and punctuation ("iphone11" works).
  public static func named(_ name: String) -> DeviceModel? {
    let key = normalize(name)
    return all.first { normalize($0.name) == key }
  }

  private static func normalize(_ s: String) -> String {
    String(s.lowercased().filter { $0.isLetter || $0.isNumber })
  }

  /// Every model of reference §4, in the table's order.
  public static let all: [DeviceModel] = [
    ("iPad 1", 127, 256), ("iPad 2", 275, 512), ("iPad 3", 645, 1024), ("iPad 4", 585, 1024),
    ("iPad mini 1", 297, 512), ("iPad mini retina", 696, 1024), ("iPad Air", 697, 1024),
    ("iPad Air 2", 1383, 2048), ("iPad Pro 9.7", 1395, 1971), ("iPad Pro 10.5", 3057, 4000),
    ("iPad Pro 12.9 2015", 3058, 3999), ("iPad Pro 12.9 2017", 3057, 3974),
    ("iPad Pro 11 2018", 2858, 3769), ("iPad Pro 12.9 2018", 4598, 5650), ("iPad 10.2", 1844, 2998),
    ("iPod touch 4", 130, 256), ("iPod touch 5", 286, 512),
    ("iPhone 4", 325, 512), ("iPhone 4s", 286, 512), ("iPhone 5", 645, 1024), ("iPhone 5s", 646, 1024),
    ("iPhone 6", 645, 1024), ("iPhone 6 Plus", 645, 1024), ("iPhone 6s", 1396, 2048),
    ("iPhone 6s Plus", 1392, 2048), ("iPhone SE", 1395, 2048), ("iPhone 7", 1395, 2048),
    ("iPhone 7 Plus", 2040, 3072), ("iPhone 8", 1364, 1990), ("iPhone X", 1392, 2785),
    ("iPhone XS", 2040, 3754), ("iPhone XS Max", 2039, 3735), ("iPhone XR", 1792, 2813),
    ("iPhone 11", 2068, 3844), ("iPhone 11 Pro Max", 2067, 3740),
  ].map { DeviceModel(name: $0.0, ramMB: $0.2, perProcessLimitMB: $0.1) }
}
