extension ServeCommand {
    static let definition = CommandSpec(
        path: ["serve"], arguments: "",
        summary: "the HTTP API (POST /v1/faces, /v1/blur, /v1/lift) and the web editor at /, until SIGINT or SIGTERM",
        details: ["A host other than loopback needs --token: every /v1 request and /metrics must then carry "
                  + "`Authorization: Bearer T`. Sizes take kB, MB, GB (or K, M, G); durations s or ms."],
        options: ServeOptions.specs)
        .runs { try await run($0) }
        .examples(.init("veil serve", "the API and the editor on http://127.0.0.1:8080/"),
                  .init("veil serve --host 0.0.0.0 --token \"$TOKEN\" --media videos/", "for a network: every /v1 request needs the token; the Video tab edits videos/"),
                  .init("curl --data-binary @photo.jpg http://127.0.0.1:8080/v1/blur -o covered.jpg", "a photo covered over HTTP"))
}
