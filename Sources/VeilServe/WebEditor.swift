/// The web editor served at `/`: one self-contained page (no CDN, no npm),
/// assembled from its markup, style and script so each stays readable.
enum WebEditor {
    static let page = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Veil editor</title>
    <style>
    \(WebEditorStyle.css)
    </style>
    </head>
    <body>
    \(WebEditorMarkup.html)
    <script>
    \(WebEditorScript.js)
    </script>
    </body>
    </html>
    """
}
