/// The web editor served at `/`: one page, no external resources.
enum WebEditor {
    static let page = "<!doctype html><title>Veil</title><p>Veil editor</p>"
}
