/// `veil man`: the man page on standard output (`veil man | man -l -`).
enum ManCommand {
    static let definition = CommandSpec.bare("man", summary: "print the man page, veil.1 (roff): `veil man | man -l -`",
                                             details: ["The same text is committed as docs/veil.1."]) {
        print(ManPage.render(), terminator: "")
    }
}
