/// The people of a video's tracks (`Track.person`): proposed by a first run
/// from the faces' embeddings (`PersonProposal`), confirmed, split or merged by
/// the reviewer, and uncovered or covered whole (`--uncover-person`, `--cover-person`).
extension VideoEditingState {
    /// Whether the tracks carry people (a run that proposed them made the state).
    public var hasPeople: Bool { tracks.contains { $0.person != nil } }

    /// Each person and its tracks (in id order), people by number.
    public var people: [(person: Int, tracks: [Track])] {
        Dictionary(grouping: tracks.filter { $0.person != nil }, by: { $0.person! })
            .map { (person: $0.key, tracks: $0.value.sorted { $0.id < $1.id }) }.sorted { $0.person < $1.person }
    }

    /// The people's edits of `edits`, in this order: people joined, tracks moved
    /// to a person, people uncovered or covered (each of their tracks' status).
    mutating func applyPeople(_ edits: VideoEdits) throws {
        guard !(edits.mergePeople.isEmpty && edits.personOf.isEmpty && edits.uncoverPeople.isEmpty && edits.coverPeople.isEmpty) else { return }
        guard hasPeople else {
            throw VeilError.invalidArgument("this state holds no people (made before Veil proposed them, or without the sface model): "
                                            + "remove it and run again to detect and propose them, or edit tracks with --drop-track")
        }
        func known() -> String {
            let all = people.map(\.person)
            return all.count > 12 ? "\(all.first!)...\(all.last!)" : all.map(String.init).joined(separator: ", ")
        }
        func require(_ person: Int) throws {
            guard tracks.contains(where: { $0.person == person }) else { throw VeilError.invalidArgument("there is no person \(person) (people: \(known()))") }
        }
        for group in edits.mergePeople {
            guard Set(group).count == group.count, group.count >= 2 else {
                throw VeilError.invalidArgument("--merge-people joins two or more different people, not \(group.map(String.init).joined(separator: ","))")
            }
            for p in group { try require(p) }
            let into = group[0], gone = Set(group.dropFirst())
            for t in tracks.indices where tracks[t].person.map(gone.contains) == true { tracks[t].person = into }
        }
        for (id, person) in edits.personOf.sorted(by: { $0.key < $1.key }) {
            guard let t = tracks.firstIndex(where: { $0.id == id }) else {
                if unsure?.contains(where: { $0.id == id }) == true {
                    throw VeilError.invalidArgument("\(id) is an unsure sighting, not a track: join it to a track with --merge-tracks first")
                }
                throw VeilError.invalidArgument("there is no track \(id) to give a person (see `veil video tracks --people`)")
            }
            tracks[t].person = person
        }
        for (people, status) in [(edits.uncoverPeople, Status.dropped), (edits.coverPeople, .covered)] {
            for person in people {
                try require(person)
                for t in tracks.indices where tracks[t].person == person { tracks[t].status = status }
            }
        }
    }
}
