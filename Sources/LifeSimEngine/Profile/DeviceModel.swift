/// A device model with its RAM, its per-process memory limit and the iOS
/// versions it runs (reference §4).
///
/// The limits of the older models are the community-measured foreground crash
/// limits of reference §4 (Stack Overflow answer 15200855): indicative, as
/// §8.9 says, not Apple's. For the later models no such measurement has been
/// published, so their limit is lifesim's default, half of RAM
/// (`limitMeasured == false`), and their RAM is the figure the public spec
/// tables give (the Wikipedia lists of iPhone and iPad models, from teardowns:
/// Apple does not publish RAM).
///
///     let m = DeviceModel.named("iPhone 11")!   // 3844 MB RAM, 2068 MB per process
public struct DeviceModel: Sendable, Equatable {
  public var name: String
  /// Physical memory, in MB.
  public var ramMB: Int
  /// The per-process limit at which the foreground app is killed, in MB.
  public var perProcessLimitMB: Int
  /// Whether the limit was measured (reference §4's table) or is the default.
  public var limitMeasured: Bool
  /// The first and last major iOS versions the model runs (nil: still supported).
  public var firstIOS: Int
  public var lastIOS: Int?
  /// Pressing the side button gives the app on screen `willResignActive`,
  /// `didBecomeActive`, then `willResignActive` again before it enters the
  /// background (§2.3 "Models that reactivate on lock": logs of an iPhone 14
  /// Pro on 16.5.1 and an iPhone 15 on 18.3; an iPhone 13 Pro Max on the same
  /// iOS does not).
  public var lockReactivates = false

  /// Whether the model shows an app's windows side by side (Split View, Slide
  /// Over, Stage Manager): the iPads (§1.2 "Windows side by side").
  public var showsWindowsSideBySide: Bool { name.hasPrefix("iPad") }

  /// Whether `BGTaskScheduler.supportedResources` holds `.gpu` on iOS 26:
  /// the iPads (§3.5 "Background GPU": developers find it false on every
  /// iPhone they tried; Apple lists no models).
  public var supportsBackgroundGPU: Bool { name.hasPrefix("iPad") }

  /// The per-process limit when no model is given: 50% of RAM (reference §0 "Jetsam").
  public static func defaultLimitMB(ramMB: Int) -> Int { ramMB / 2 }

  /// Whether the current iOS still supports the model (it has no last version).
  public var stillSupported: Bool { lastIOS == nil }

  /// Whether the model runs iOS `version`.
  public func runs(ios version: Int) -> Bool {
    guard version >= firstIOS else { return false }
    guard let lastIOS else { return true }  // still supported
    return version <= lastIOS
  }

  /// "iOS 4 to 7", "iOS 14 and later".
  public var iosRange: String {
    guard let lastIOS else { return "iOS \(firstIOS) and later" }
    return "iOS \(firstIOS) to \(lastIOS)"
  }

  /// Finds a model by name, ignoring case, spaces and punctuation ("iphone11" works).
  public static func named(_ name: String) -> DeviceModel? {
    let key = normalize(name)
    return all.first { normalize($0.name) == key }
  }

  private static func normalize(_ s: String) -> String {
    String(s.lowercased().filter { $0.isLetter || $0.isNumber })
  }

  private static func measured(_ name: String, limit: Int, ram: Int, ios: ClosedRange<Int>) -> DeviceModel {
    DeviceModel(name: name, ramMB: ram, perProcessLimitMB: limit, limitMeasured: true,
                firstIOS: ios.lowerBound, lastIOS: ios.upperBound)
  }

  private static func unmeasured(_ name: String, ramGB: Int, from first: Int, to last: Int? = nil) -> DeviceModel {
    let ram = ramGB * 1024
    return DeviceModel(name: name, ramMB: ram, perProcessLimitMB: defaultLimitMB(ramMB: ram), limitMeasured: false,
                       firstIOS: first, lastIOS: last)
  }

  private static func reactivatesOnLock(_ model: DeviceModel) -> DeviceModel {
    var m = model
    m.lockReactivates = true
    return m
  }

  /// Every model lifesim knows: reference §4's table (limit, RAM as measured),
  /// then later models (RAM from the public spec tables, default limit). The
  /// iOS ranges are Apple's compatibility lists (first shipped, last supported).
  public static let all: [DeviceModel] = [
    measured("iPad 1", limit: 127, ram: 256, ios: 3...5), measured("iPad 2", limit: 275, ram: 512, ios: 4...9),
    measured("iPad 3", limit: 645, ram: 1024, ios: 5...9), measured("iPad 4", limit: 585, ram: 1024, ios: 6...10),
    measured("iPad mini 1", limit: 297, ram: 512, ios: 6...9),
    measured("iPad mini retina", limit: 696, ram: 1024, ios: 7...12),
    measured("iPad Air", limit: 697, ram: 1024, ios: 7...12), measured("iPad Air 2", limit: 1383, ram: 2048, ios: 8...15),
    measured("iPad Pro 9.7", limit: 1395, ram: 1971, ios: 9...16),
    measured("iPad Pro 10.5", limit: 3057, ram: 4000, ios: 10...17),
    measured("iPad Pro 12.9 2015", limit: 3058, ram: 3999, ios: 9...16),
    measured("iPad Pro 12.9 2017", limit: 3057, ram: 3974, ios: 10...17),
    measured("iPad Pro 11 2018", limit: 2858, ram: 3769, ios: 12...26),
    measured("iPad Pro 12.9 2018", limit: 4598, ram: 5650, ios: 12...26),
    measured("iPad 10.2", limit: 1844, ram: 2998, ios: 13...18),
    measured("iPod touch 4", limit: 130, ram: 256, ios: 4...6), measured("iPod touch 5", limit: 286, ram: 512, ios: 6...9),
    measured("iPhone 4", limit: 325, ram: 512, ios: 4...7), measured("iPhone 4s", limit: 286, ram: 512, ios: 5...9),
    measured("iPhone 5", limit: 645, ram: 1024, ios: 6...10), measured("iPhone 5s", limit: 646, ram: 1024, ios: 7...12),
    measured("iPhone 6", limit: 645, ram: 1024, ios: 8...12), measured("iPhone 6 Plus", limit: 645, ram: 1024, ios: 8...12),
    measured("iPhone 6s", limit: 1396, ram: 2048, ios: 9...15),
    measured("iPhone 6s Plus", limit: 1392, ram: 2048, ios: 9...15),
    measured("iPhone SE", limit: 1395, ram: 2048, ios: 9...15), measured("iPhone 7", limit: 1395, ram: 2048, ios: 10...15),
    measured("iPhone 7 Plus", limit: 2040, ram: 3072, ios: 10...15),
    measured("iPhone 8", limit: 1364, ram: 1990, ios: 11...16), measured("iPhone X", limit: 1392, ram: 2785, ios: 11...16),
    measured("iPhone XS", limit: 2040, ram: 3754, ios: 12...18),
    measured("iPhone XS Max", limit: 2039, ram: 3735, ios: 12...18),
    measured("iPhone XR", limit: 1792, ram: 2813, ios: 12...18),
    measured("iPhone 11", limit: 2068, ram: 3844, ios: 13...26),
    measured("iPhone 11 Pro Max", limit: 2067, ram: 3740, ios: 13...26),
    // Later models: RAM from the public spec tables; no published limit.
    unmeasured("iPhone SE 2020", ramGB: 3, from: 13), unmeasured("iPhone 12", ramGB: 4, from: 14),
    unmeasured("iPhone 12 Pro", ramGB: 6, from: 14), unmeasured("iPhone 13", ramGB: 4, from: 15),
    unmeasured("iPhone 13 Pro", ramGB: 6, from: 15), unmeasured("iPhone SE 2022", ramGB: 4, from: 15),
    unmeasured("iPhone 13 Pro Max", ramGB: 6, from: 15),
    unmeasured("iPhone 14", ramGB: 6, from: 16), reactivatesOnLock(unmeasured("iPhone 14 Pro", ramGB: 6, from: 16)),
    reactivatesOnLock(unmeasured("iPhone 15", ramGB: 6, from: 17)), unmeasured("iPhone 15 Pro", ramGB: 8, from: 17),
    unmeasured("iPhone 16", ramGB: 8, from: 18), unmeasured("iPhone 16 Pro", ramGB: 8, from: 18),
    unmeasured("iPad 9", ramGB: 3, from: 15), unmeasured("iPad Air 2022", ramGB: 8, from: 15),
    unmeasured("iPad Pro 11 2022", ramGB: 8, from: 16), unmeasured("iPad mini 6", ramGB: 4, from: 15),
  ]
}
