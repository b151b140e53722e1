/// The fixed user directory behind `/users`: enough rows to make search results interesting.
enum DemoOriginUsers {
    /// One user.
    struct User: Sendable {
        let id: Int
        let name: String
        let email: String
        /// The user as a JSON object.
        let json: String
        /// The entity tag of `/users/{id}` for this user.
        let tag: String

        init(id: Int, name: String, email: String) {
            self.id = id
            self.name = name
            self.email = email
            json = "{\"id\": \(id), \"name\": \(DemoOriginJSON.quoted(name)), \"email\": \(DemoOriginJSON.quoted(email))}"
            tag = DemoOriginETag.tag(for: DemoOriginJSON.body(json))
        }
    }

    static let all: [User] = [
        "Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov",
        "Donald Knuth", "Margaret Hamilton", "Ken Thompson", "Dennis Ritchie", "Frances Allen",
        "John McCarthy", "Radia Perlman", "Tim Berners-Lee", "Katherine Johnson", "Linus Torvalds",
        "Hedy Lamarr", "Niklaus Wirth", "Adele Goldberg", "Leslie Lamport", "Shafi Goldwasser",
    ].enumerated().map { index, name in
        let login = name.lowercased().split(separator: " ").joined(separator: ".")
        return User(id: index + 1, name: name, email: "\(login)@example.com")
    }

    /// Users whose name contains `text`, ignoring case; all users when `text` is empty.
    static func search(_ text: String) -> [User] {
        let needle = text.lowercased()
        guard !needle.isEmpty else { return all }
        return all.filter { $0.name.lowercased().contains(needle) }
    }

    /// The user with `id`, if any.
    static func user(id: Int) -> User? {
        all.first { $0.id == id }
    }
}
