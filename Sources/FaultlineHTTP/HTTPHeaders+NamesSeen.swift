extension HTTPHeaders {
    /// Which of the fields that checks and writers look for are present, kept by every
    /// change to the fields: a head is checked and rewritten in several passes over its
    /// fields (the Connection list, Transfer-Encoding, every Host), and most heads carry few
    /// of those fields, so a pass is skipped when its field is absent.
    public struct NamesSeen: OptionSet, Sendable {
        /// One bit per member.
        public let rawValue: UInt8

        /// Creates a set from its bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// A field with an empty name.
        public static let empty = NamesSeen(rawValue: 1 << 0)
        /// `Host`.
        public static let host = NamesSeen(rawValue: 1 << 1)
        /// `Connection`.
        public static let connection = NamesSeen(rawValue: 1 << 2)
        /// `Transfer-Encoding`.
        public static let transferEncoding = NamesSeen(rawValue: 1 << 3)

        /// The member a field named `name` adds, if any (a length test first: most names
        /// are compared with nothing).
        static func of(_ name: UnsafeRawBufferPointer) -> NamesSeen {
            switch name.count {
            case 0: .empty
            case 4 where ASCII.equalsIgnoringCase(name, "host"): .host
            case 10 where ASCII.equalsIgnoringCase(name, "connection"): .connection
            case 17 where ASCII.equalsIgnoringCase(name, "transfer-encoding"): .transferEncoding
            default: []
            }
        }

        /// The members the fields over `bytes` add.
        static func of(_ fields: UnsafeBufferPointer<Field>, over bytes: UnsafeRawBufferPointer) -> NamesSeen {
            var seen: NamesSeen = []
            for field in fields {
                seen.formUnion(of(UnsafeRawBufferPointer(rebasing: bytes[Int(field.start)..<Int(field.nameEnd)])))
            }
            return seen
        }
    }
}
